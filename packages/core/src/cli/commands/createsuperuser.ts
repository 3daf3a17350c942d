/**
 * `createsuperuser`: Django's command. Interactive by default (username, e-mail address, the
 * password typed twice and checked by the password validators: a failure asks again, or
 * creates the user anyway when you answer yes to the bypass question). With `--noinput` it
 * asks nothing: `--username` (or `RESTFRAMEWORK_SUPERUSER_USERNAME`) is required, the password
 * comes from `RESTFRAMEWORK_SUPERUSER_PASSWORD` (Django's `DJANGO_SUPERUSER_PASSWORD`; never a
 * flag, which the process list shows); without it (or empty) the user gets an unusable
 * password, as in Django. Unlike Django, that password is checked by the validators too (a
 * failure exits 1 with their messages): a script is no reason for a weak superuser password.
 * The e-mail address may also come from `RESTFRAMEWORK_SUPERUSER_EMAIL`, the username from
 * `RESTFRAMEWORK_SUPERUSER_USERNAME`. The users are the config's `auth` (default
 * `defaultAuth`).
 *
 *   RESTFRAMEWORK_SUPERUSER_PASSWORD=... restframework createsuperuser --noinput --username admin
 * @module
 */
import { type Auth, createSuperuser, defaultAuth } from '../../accounts/auth.ts';
import type { Database } from '../../db/database.ts';
import { isEmailAddress } from '../../fields/email-address.ts';
import { type Command, type CommandContext, withDatabase } from '../command.ts';
import { type Prompt, terminalPrompt } from './terminal-prompt.ts';
import { passwordProblems, validationMessages } from './validation-messages.ts';

/** The environment variable `--noinput` reads the password from. */
export const SUPERUSER_PASSWORD_ENV = 'RESTFRAMEWORK_SUPERUSER_PASSWORD';

class Cancelled extends Error {}

async function answer(pending: Promise<string | null>): Promise<string> {
  const line = await pending;
  if (line === null) throw new Cancelled('Operation cancelled.');
  return line;
}

async function usernameTaken(db: Database, auth: Auth, username: string): Promise<boolean> {
  return (await db.run(() => auth.findUser(username))) !== undefined;
}

/** Asks for a username until one is given that nobody has. */
async function askUsername(
  context: CommandContext,
  prompt: Prompt,
  db: Database,
  auth: Auth,
  given: string | undefined,
): Promise<string> {
  let username = given;
  const label = auth.usernameField[0]?.toUpperCase() + auth.usernameField.slice(1);
  for (;;) {
    if (username === undefined) username = (await answer(prompt.ask(`${label}: `))).trim();
    if (username === '') context.err('Error: This field cannot be blank.');
    else if (await usernameTaken(db, auth, username))
      context.err(`Error: That ${auth.usernameField} is already taken.`);
    else return username;
    username = undefined;
  }
}

/** Django's message for an address its `EmailValidator` refuses. */
const INVALID_EMAIL = 'Enter a valid email address.';

/** True for an empty address (the field is optional) or one Django's validator accepts. */
function acceptableEmail(address: string): boolean {
  return address === '' || isEmailAddress(address);
}

/** Asks for an e-mail address (blank allowed) until one is valid, as Django's command does. */
async function askEmail(
  context: CommandContext,
  prompt: Prompt,
  given: string | undefined,
): Promise<string> {
  let address = given;
  for (;;) {
    if (address === undefined) address = (await answer(prompt.ask('Email address: '))).trim();
    if (acceptableEmail(address)) return address;
    context.err(`Error: ${INVALID_EMAIL}`);
    address = undefined;
  }
}

/** Asks for the password twice until both match and pass the validators (or are let through). */
async function askPassword(
  context: CommandContext,
  prompt: Prompt,
  auth: Auth,
  fields: Record<string, unknown>,
): Promise<string> {
  for (;;) {
    const password = await answer(prompt.secret('Password: '));
    const again = await answer(prompt.secret('Password (again): '));
    if (password !== again) {
      context.err("Error: Your passwords didn't match.");
      continue;
    }
    if (password === '') {
      context.err("Error: Blank passwords aren't allowed.");
      continue;
    }
    const messages = passwordProblems(auth, password, fields);
    if (messages.length === 0) return password;
    for (const message of messages) context.err(message);
    const bypass = await answer(
      prompt.ask('Bypass password validation and create user anyway? [y/N]: '),
    );
    if (/^y(es)?$/i.test(bypass.trim())) return password;
  }
}

export const createsuperuser: Command = {
  name: 'createsuperuser',
  summary: `Creates a superuser (asks for its details, or reads ${SUPERUSER_PASSWORD_ENV} with --noinput).`,
  usage: 'createsuperuser [--username NAME] [--email ADDRESS] [--noinput]',
  options: {
    username: { type: 'string' },
    email: { type: 'string' },
    noinput: { type: 'boolean' },
    'no-input': { type: 'boolean' },
  },
  async run(context) {
    const config = await context.config();
    const auth = config.auth ?? defaultAuth;
    const noinput = context.values.noinput === true || context.values['no-input'] === true;
    const given = context.values.username as string | undefined;
    const email = context.values.email as string | undefined;
    return withDatabase(config, async (db) => {
      if (noinput) {
        const username = given ?? process.env.RESTFRAMEWORK_SUPERUSER_USERNAME;
        if (!username) {
          context.err(`Error: You must use --username with --noinput.`);
          return 1;
        }
        const address = email ?? process.env.RESTFRAMEWORK_SUPERUSER_EMAIL ?? '';
        if (!acceptableEmail(address)) {
          context.err(`Error: ${INVALID_EMAIL}`);
          return 1;
        }
        // Empty counts as unset, as in Django: an unusable password rather than an empty one.
        const password = process.env[SUPERUSER_PASSWORD_ENV] || null;
        try {
          await createSuperuser(
            db,
            {
              username,
              password,
              email: address,
            },
            auth,
          );
        } catch (error) {
          const messages = validationMessages(error);
          if (!messages) throw error;
          for (const message of messages) context.err(`Error: ${message}`);
          return 1;
        }
        if (password === null)
          context.out(
            `No ${SUPERUSER_PASSWORD_ENV}: the superuser has an unusable password (set one with changepassword).`,
          );
        context.out('Superuser created successfully.');
        return 0;
      }
      const prompt = terminalPrompt();
      try {
        const username = await askUsername(context, prompt, db, auth, given);
        const address = await askEmail(context, prompt, email);
        const fields = { [auth.usernameField]: username, email: address };
        const password = await askPassword(context, prompt, auth, fields);
        await createSuperuser(db, { username, email: address, password, validate: false }, auth);
        context.out('Superuser created successfully.');
        return 0;
      } catch (error) {
        if (error instanceof Cancelled) {
          context.err(error.message);
          return 1;
        }
        const messages = validationMessages(error);
        if (!messages) throw error;
        for (const message of messages) context.err(`Error: ${message}`);
        return 1;
      } finally {
        prompt.close();
      }
    });
  },
};
