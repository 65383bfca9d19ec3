import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { CredentialsCipher } from './credentials-cipher';
import { CredentialsStore } from './credentials-store';
import { CredentialsMailStore } from './credentials-mail-store';
import { Credentials } from './credentials.entity';
import { CredentialsService } from './credentials.service';
import { WorkspaceSmtpCredentialsStore } from './workspace-smtp-credentials-store';

export class CredentialsController extends ResourceController(Credentials, CredentialsService) {}

/** /credentials and /teams/{id}/credentials; secrets sealed with CREDENTIALS_ENCRYPTION_KEY. */
@Module({
  controllers: [CredentialsController],
  providers: [
    CredentialsCipher,
    CredentialsService,
    CredentialsStore,
    WorkspaceSmtpCredentialsStore,
    CredentialsMailStore,
  ],
  exports: [
    CredentialsCipher,
    CredentialsStore,
    CredentialsService,
    WorkspaceSmtpCredentialsStore,
    CredentialsMailStore,
  ],
})
export class CredentialsModule {}
