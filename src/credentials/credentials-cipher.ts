import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { SecretBox } from './secret-box';

/** Development fallback only; production refuses to start without CREDENTIALS_ENCRYPTION_KEY. */
const DEVELOPMENT_KEY = 'shipment-tracking development credentials key (not secret)';

/** The SecretBox of this deployment, keyed by CREDENTIALS_ENCRYPTION_KEY. */
@Injectable()
export class CredentialsCipher {
  private readonly box: SecretBox;

  constructor(config: AppConfig) {
    if (config.credentialsEncryptionKey) {
      this.box = SecretBox.fromSetting(config.credentialsEncryptionKey);
    } else if (config.isProduction) {
      throw new Error('CREDENTIALS_ENCRYPTION_KEY must be set in production');
    } else {
      if (config.nodeEnv !== 'test') {
        new Logger(CredentialsCipher.name).warn(
          'CREDENTIALS_ENCRYPTION_KEY is unset: credential secrets use a development key',
        );
      }
      this.box = SecretBox.fromSetting(DEVELOPMENT_KEY);
    }
  }

  sealSecrets(secrets: Record<string, string>): string | null {
    return Object.keys(secrets).length === 0 ? null : this.box.seal(JSON.stringify(secrets));
  }

  openSecrets(sealed: string | null): Record<string, string> {
    return sealed ? (JSON.parse(this.box.open(sealed)) as Record<string, string>) : {};
  }
}
