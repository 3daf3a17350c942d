/**
 * `changepassword [USERNAME]`: Django's command. Asks for the new password twice (not shown)
 * and checks it with the password validators; three failed attempts abort. For scripts,
 * `--password-stdin` reads the password from standard input instead (everything up to the end,
 * one trailing newline removed), validated the same way, without a question. The username
 * defaults to the current system user's name, as in Django.
 *
 *   printf '%s\n' "$NEW_PASSWORD" | restframework changepassword --password-stdin admin
 * @module
 */
import { userInfo } from 'node:os';
import { type Auth, changePassword, defaultAuth, type UserRow } from '../../accounts/auth.ts';
import { type Command, type CommandContext, UsageError, withDatabase } from '../command.ts';
import { terminalPrompt } from './terminal-prompt.ts';
import { passwordProblems } from './validation-messages.ts';

const MAX_TRIES = 3;

/** Standard input, whole (the password of `--password-stdin`). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** What is wrong with `password` for `user`, nothing when it passes. */
function problems(auth: Auth, password: string, user: UserRow): string[] {
  return password === ''
    ? ["Blank passwords aren't allowed."]
    : passwordProblems(auth, password, user);
}

async function askPassword(
  context: CommandContext,
  auth: Auth,
  user: UserRow,
  username: string,
): Promise<string | null> {
  const prompt = terminalPrompt();
  try {
    for (let attempt = 1; attempt <= MAX_TRIES; attempt++) {
      const password = await prompt.secret('Password: ');
      const again = password === null ? null : await prompt.secret('Password (again): ');
      if (password === null || again === null) {
        context.err('Operation cancelled.');
        return null;
      }
      if (password !== again) {
        context.err('Passwords do not match. Please try again.');
        continue;
      }
      const found = problems(auth, password, user);
      if (found.length === 0) return password;
      for (const message of found) context.err(message);
    }
    context.err(`Aborting password change for user '${username}' after ${MAX_TRIES} attempts`);
    return null;
  } finally {
    prompt.close();
  }
}

export const changepassword: Command = {
  name: 'changepassword',
  summary: "Changes a user's password (asked twice, or read from standard input).",
  usage: 'changepassword [USERNAME] [--password-stdin]',
  options: { 'password-stdin': { type: 'boolean' } },
  async run(context) {
    if (context.positionals.length > 1) throw new UsageError('Give at most one username.');
    const config = await context.config();
    const auth = config.auth ?? defaultAuth;
    const username = context.positionals[0] ?? userInfo().username;
    return withDatabase(config, async (db) => {
      const user = await db.run(() => auth.findUser(username));
      if (!user) {
        context.err(`Error: user '${username}' does not exist`);
        return 1;
      }
      let password: string | null;
      if (context.values['password-stdin'] === true) {
        password = (await readStdin()).replace(/\r?\n$/, '');
        const found = problems(auth, password, user);
        if (found.length) {
          for (const message of found) context.err(`Error: ${message}`);
          return 1;
        }
      } else {
        context.out(`Changing password for user '${username}'`);
        password = await askPassword(context, auth, user, username);
        if (password === null) return 1;
      }
      await changePassword(db, username, password, { validate: false }, auth);
      context.out(`Password changed successfully for user '${username}'`);
      return 0;
    });
  },
};
