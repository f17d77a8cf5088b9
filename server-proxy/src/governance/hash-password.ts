/**
 * Print a users-file line for DASHBOARD_USERS_FILE (the role is optional: none is analyst):
 *   printf '%s' 'the password' | npx tsx server-proxy/src/governance/hash-password.ts alice admin
 * The password is read from standard input so it stays out of the shell history and process list.
 * A password under 12 characters, or an easy one (governance/password-policy.ts), is refused: the
 * reason on standard error, exit 2, no line printed.
 */
import { text } from 'node:stream/consumers';
import { isRole } from '../../../src/lib/roles.ts';
import { hashPassword, isUserName, passwordProblem } from './passwords.ts';

const name = process.argv[2] ?? '';
const role = process.argv[3];
if (!isUserName(name) || (role !== undefined && !isRole(role))) {
  process.stderr.write('usage: hash-password.ts <user name> [viewer|analyst|admin] < password\n');
  process.exit(2);
}
const password = (await text(process.stdin)).replace(/\r?\n$/, '');
const problem = passwordProblem(password);
if (problem !== undefined) {
  process.stderr.write(`the password ${problem}\n`);
  process.exit(2);
}
process.stdout.write(`${name}:${await hashPassword(password)}${role ? `:${role}` : ''}\n`);
