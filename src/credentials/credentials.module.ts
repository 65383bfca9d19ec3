import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { CredentialsCipher } from './credentials-cipher';
import { CredentialsMailStore } from './credentials-mail-store';
import { Credentials } from './credentials.entity';
import { CredentialsService } from './credentials.service';

export class CredentialsController extends ResourceController(Credentials, CredentialsService) {}

/** /credentials and /teams/{id}/credentials; secrets sealed with CREDENTIALS_ENCRYPTION_KEY. */
@Module({
  controllers: [CredentialsController],
  providers: [CredentialsCipher, CredentialsService, CredentialsMailStore],
  exports: [CredentialsCipher, CredentialsService, CredentialsMailStore],
})
export class CredentialsModule {}
