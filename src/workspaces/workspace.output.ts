import { Documented } from '../hydra/validation/documented';

/** The logo of a workspace's e-mails, as clients read it. */
export class EmailLogo {
  @Documented({ type: 'string', format: 'uuid', required: true }) id!: string;
  @Documented({ type: 'string', required: true }) filePath!: string;
}

/** A workspace's e-mail settings (written with a media IRI as `logo`). */
export class EmailSettingsOutput {
  @Documented({ of: () => EmailLogo, nullable: true, required: true }) logo!: EmailLogo | null;
  @Documented({ type: 'string', nullable: true, required: true }) signature!: string | null;
  @Documented({
    type: 'string',
    nullable: true,
    required: true,
    description: 'The SMTP credentials IRI.',
  })
  smtpCredentials!: string | null;
}
