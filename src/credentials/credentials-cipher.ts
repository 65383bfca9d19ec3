import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { SecretBox } from './secret-box';

/** Development fallback only; production refuses to start without CREDENTIALS_ENCRYPTION_KEY. */
const DEVELOPMENT_KEY = 'shipment-tracking development credentials key (not secret)';

/**
 * The SecretBox of this deployment: sealing with CREDENTIALS_ENCRYPTION_KEY, opening with it
 * or any key of CREDENTIALS_ENCRYPTION_KEY_PREVIOUS (rotation, see rotateAll in
 * credentials-key-rotation.ts).
 */
@Injectable()
export class CredentialsCipher {
  private readonly box: SecretBox;

  constructor(config: AppConfig) {
    const previous = config.credentialsEncryptionKeyPrevious;
    if (config.credentialsEncryptionKey) {
      this.box = SecretBox.fromSetting(config.credentialsEncryptionKey, previous);
    } else if (config.isProduction) {
      throw new Error('CREDENTIALS_ENCRYPTION_KEY must be set in production');
    } else {
      if (config.nodeEnv !== 'test') {
        new Logger(CredentialsCipher.name).warn(
          'CREDENTIALS_ENCRYPTION_KEY is unset: credential secrets use a development key',
        );
      }
      this.box = SecretBox.fromSetting(DEVELOPMENT_KEY, previous);
    }
  }

  /** Id of the key new values are sealed with. */
  get keyId(): string {
    return this.box.keyId;
  }

  sealSecrets(secrets: Record<string, string>): string | null {
    return Object.keys(secrets).length === 0 ? null : this.box.seal(JSON.stringify(secrets));
  }

  openSecrets(sealed: string | null): Record<string, string> {
    return sealed ? (JSON.parse(this.box.open(sealed)) as Record<string, string>) : {};
  }

  /** The value sealed with the current key, or null when it already is. */
  reseal(sealed: string): string | null {
    return this.box.isCurrent(sealed) ? null : this.box.seal(this.box.open(sealed));
  }
}
