/**
 * What a user should run instead when GCScope cannot reach a process for want of privileges: the
 * same command as root. The CLI sets the command it was started with (`sudo gcscope record --pid
 * 4242`), so the one-line error can be copied as it is; the app keeps the generic form.
 */
let command = 'sudo gcscope serve (or start the app as root)';

/** POSIX shell quoting, only where a word needs it. */
function quote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Called once by the CLI with its arguments (after `gcscope`). */
export function setRerunArgs(args: string[]): void {
  command = ['sudo', 'gcscope', ...args].map(quote).join(' ');
}

export function rerunAsRoot(): string {
  return command;
}
