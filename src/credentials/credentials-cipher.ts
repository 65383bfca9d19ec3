import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { localCredentialsKey } from './local-key-file';
import { SecretBox } from './secret-box';

/**
 * The fixed key of test runs (NODE_ENV=test), and of earlier versions without a key: it is
 * public, so it never seals anything outside tests; it still opens what it sealed, until
 * `rotate-credentials-key` re-seals that with the deployment's key.
 */
const PUBLIC_DEVELOPMENT_KEY = 'shipment-tracking development credentials key (not secret)';

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
    } else if (config.nodeEnv === 'test') {
      this.box = SecretBox.fromSetting(PUBLIC_DEVELOPMENT_KEY, previous);
    } else {
      // Zero-setup: a random key of this deployment, kept in DATA_DIR (never a public one).
      const key = localCredentialsKey(config.dataDir);
      new Logger(CredentialsCipher.name).warn(
        `CREDENTIALS_ENCRYPTION_KEY is unset: credential secrets use the key generated in ${config.dataDir}; set it on every node to share credentials between them`,
      );
      this.box = SecretBox.fromSetting(key, [...(previous ?? []), PUBLIC_DEVELOPMENT_KEY]);
    }
  }

  /** Id of the key new values are sealed with. */
  get keyId(): string {
    return this.box.keyId;
  }

  /**
   * A secret of this deployment for `purpose` (e.g. signing image proxy URLs), derived from
   * CREDENTIALS_ENCRYPTION_KEY: every node with the same key derives the same one.
   */
  derivedKey(purpose: string): Buffer {
    return this.box.derive(purpose);
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
