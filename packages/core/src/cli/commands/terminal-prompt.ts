/**
 * Questions on standard input for the interactive commands (`createsuperuser`,
 * `changepassword`): one line per answer, from a terminal or a pipe (a script, a test). A
 * secret is never echoed: on a terminal what is typed is not shown, and an answer is never
 * written anywhere.
 * @module
 */
import { createInterface, type Interface } from 'node:readline';
import { Writable } from 'node:stream';

/** Asks questions and reads their answers, one line each; `null` once the input has ended. */
export interface Prompt {
  ask(question: string): Promise<string | null>;
  /** As `ask`, what is typed not shown. */
  secret(question: string): Promise<string | null>;
  close(): void;
}

/** What {@link terminalPrompt} reads from and writes to (default: the process's). */
export interface PromptStreams {
  readonly input?: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly output?: NodeJS.WritableStream;
}

/**
 * A prompt on standard input and output.
 *
 * @example
 * ```ts
 * const prompt = terminalPrompt();
 * const name = await prompt.ask('Username: ');
 * const password = await prompt.secret('Password: ');
 * prompt.close();
 * ```
 */
export function terminalPrompt(streams: PromptStreams = {}): Prompt {
  const input = streams.input ?? process.stdin;
  const output = streams.output ?? process.stdout;
  const terminal = input.isTTY === true;
  let muted = false;
  // readline echoes what a terminal types through its output: muted, a secret stays unseen.
  const echo = new Writable({
    write(chunk, encoding, done) {
      if (!muted) output.write(chunk, encoding);
      done();
    },
  });
  const lines: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  let ended = false;
  const reader: Interface = createInterface({ input, output: echo, terminal });
  // Lines are queued as they come: a pipe may deliver every answer in one chunk.
  reader.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else lines.push(line);
  });
  reader.on('close', () => {
    ended = true;
    for (const next of waiting.splice(0)) next(null);
  });
  const read = (question: string, secret: boolean): Promise<string | null> => {
    output.write(question);
    muted = secret && terminal;
    const line = lines.shift();
    const answer =
      line !== undefined
        ? Promise.resolve(line)
        : ended
          ? Promise.resolve(null)
          : new Promise<string | null>((resolve) => waiting.push(resolve));
    return answer.then((value) => {
      if (muted) output.write('\n');
      muted = false;
      // A piped answer is not echoed either: end the question's line.
      if (!terminal) output.write('\n');
      return value;
    });
  };
  return {
    ask: (question) => read(question, false),
    secret: (question) => read(question, true),
    close: () => reader.close(),
  };
}
