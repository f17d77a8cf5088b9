import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  getSessionRoute,
  signInRoute,
  signOutRoute,
} from '../../../src/lib/governance/contract.ts';
import type { AuthConfig } from '../context.ts';
import { ApiError, sendApiError } from '../http/api-error.ts';
import { contractRoute } from '../http/contract-route.ts';
import type { InputWording } from '../http/parse-input.ts';
import type { AuditTrail } from './audit.ts';
import { SESSION_COOKIE, pathOf } from './access.ts';
import { loginPage, safeNext } from './login-page.ts';
import { INVALID_NAME_ACTOR } from './roles.ts';
import type { LoginLimitStore, LoginRefusal } from './login-limit.ts';
import { isUserName, type PasswordAccounts } from './passwords.ts';
import type { SessionStore } from './sessions.ts';

export interface SessionRouteDeps {
  auth: AuthConfig;
  secureCookies: boolean;
  sessions: SessionStore;
  /** the failed sign-in limits: this process's, or Redis's shared by every replica */
  limiter: LoginLimitStore;
  /** present in password mode only: the password check and each account's role */
  accounts: PasswordAccounts | undefined;
  audit: AuditTrail;
  now: () => Date;
}

interface Credentials {
  username: string;
  password: string;
  next: string;
  /** true when the HTML form posted them (answer with pages and redirects, not JSON) */
  fromForm: boolean;
}

const FORM_BODY_LIMIT = 4096;

const FORM_TYPE = 'application/x-www-form-urlencoded';

function isForm(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith(FORM_TYPE);
}

/** The login form's fields (only these are read from a form body). */
function formFields(body: string): Record<string, string | undefined> {
  const params = new URLSearchParams(body);
  const field = (name: string) => params.get(name) ?? undefined;
  return { username: field('username'), password: field('password'), next: field('next') };
}

/** Every problem with the sign-in body is one 400 (signInRoute's schema words it). */
const CREDENTIALS_WORDING: InputWording = {
  hint: 'Send {"username": "...", "password": "..."}.',
  codes: {
    username: 'invalid_credentials_body',
    password: 'invalid_credentials_body',
    next: 'invalid_credentials_body',
  },
  rootCode: 'invalid_credentials_body',
  unknown: {
    code: 'invalid_credentials_body',
    message: () => 'username and password are required',
  },
};

function loginNotAvailable(auth: AuthConfig) {
  return new ApiError(
    400,
    'login_not_available',
    `Sign-in is not used with DASHBOARD_AUTH=${auth.kind}`,
    'Only DASHBOARD_AUTH=password has sessions.',
  );
}

export function registerSessionRoutes(app: FastifyInstance, deps: SessionRouteDeps) {
  app.addContentTypeParser(
    FORM_TYPE,
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, formFields(body as string)),
  );

  // who is signed in, with their role (the SPA hides or disables what the role cannot do)
  contractRoute(app, getSessionRoute, {}, async (request) => ({
    user: request.user ?? null,
    auth: deps.auth.kind,
  }));

  app.get('/login', async (request, reply) => {
    const next = safeNext((request.query as Record<string, unknown>).next);
    if (deps.auth.kind !== 'password' || request.user) return reply.redirect(next, 302);
    return reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(loginPage({ next }));
  });

  const { accounts } = deps;
  contractRoute(
    app,
    signInRoute,
    {
      wording: { body: CREDENTIALS_WORDING },
      // without accounts there is no sign-in, whatever the body says
      beforeInputs: () => {
        if (accounts === undefined) throw loginNotAvailable(deps.auth);
      },
    },
    async (request, reply) => {
      if (accounts === undefined) throw loginNotAvailable(deps.auth);
      const { username, password, next } = request.body;
      const credentials: Credentials = {
        username: username.trim(),
        password,
        next: safeNext(next),
        fromForm: isForm(request),
      };
      return login(request, reply, credentials, accounts);
    },
  );

  contractRoute(app, signOutRoute, {}, async (request, reply) => {
    if (deps.auth.kind !== 'password') throw loginNotAvailable(deps.auth);
    const token = request.cookies[SESSION_COOKIE];
    try {
      if (token !== undefined) await deps.sessions.destroy(token);
    } catch (err) {
      // the sessions' database is down: 503, and the cookie is kept (the session may still live)
      if (err instanceof ApiError) return sendApiError(reply, err);
      throw err;
    }
    reply.clearCookie(SESSION_COOKIE, cookieOptions(deps.secureCookies));
    return reply.code(204).send();
  });

  async function login(
    request: FastifyRequest,
    reply: FastifyReply,
    credentials: Credentials,
    accounts: PasswordAccounts,
  ) {
    const { username, fromForm } = credentials;
    const now = deps.now();
    // Counted as a failure in the same step as the check, before the (slow) password check, so
    // parallel guesses cannot all pass the limits; a right password clears it again. When the
    // limits cannot be reached (Redis down), the sign-in is refused: no guess goes uncounted.
    let refusal: LoginRefusal | undefined;
    try {
      refusal = await deps.limiter.admit(request.ip, username, now.getTime());
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return refuseLogin(reply, credentials, err);
    }
    if (refusal !== undefined) {
      const wait = refusal.retryAfterSeconds;
      return refuseLogin(
        reply,
        credentials,
        refusal.scope === 'account'
          ? new ApiError(
              429,
              'login_locked',
              'Too many failed sign-ins for this user name',
              `This name is locked for ${wait} s after repeated failures from any address. Wait, then sign in; each further lock lasts longer.`,
              { 'retry-after': String(wait) },
            )
          : new ApiError(
              429,
              'login_rate_limited',
              'Too many failed sign-ins',
              `Wait ${wait} s before trying again.`,
              { 'retry-after': String(wait) },
            ),
      );
    }
    const user = isUserName(username)
      ? await accounts.check(username, credentials.password)
      : undefined;
    auditLogin(request, username, user === undefined ? 401 : fromForm ? 303 : 200);
    if (user === undefined) {
      const wrong = 'Wrong user name or password';
      const hint = 'Check both and try again.';
      return refuseLogin(reply, credentials, new ApiError(401, 'bad_credentials', wrong, hint));
    }
    await deps.limiter.succeed(request.ip, username);
    try {
      await startSession(request, reply, user, now);
    } catch (err) {
      // the sessions' database is down: the right password, but no session to give (503)
      if (err instanceof ApiError) return refuseLogin(reply, credentials, err);
      throw err;
    }
    if (fromForm) return reply.redirect(credentials.next, 303);
    return {
      user: { id: user, name: user, role: accounts.roleOf(user) ?? 'viewer' },
      auth: deps.auth.kind,
    };
  }

  async function startSession(
    request: FastifyRequest,
    reply: FastifyReply,
    user: string,
    now: Date,
  ) {
    const previous = request.cookies[SESSION_COOKIE];
    if (previous !== undefined) await deps.sessions.destroy(previous);
    const { token, expiresAt } = await deps.sessions.create(user, now);
    reply.setCookie(SESSION_COOKIE, token, {
      ...cookieOptions(deps.secureCookies),
      expires: expiresAt,
    });
  }

  function auditLogin(request: FastifyRequest, username: string, status: number) {
    deps.audit.record({
      at: deps.now(),
      user: isUserName(username) ? username : INVALID_NAME_ACTOR,
      method: request.method,
      endpoint: pathOf(request.url),
      cacheHit: false,
      billable: false,
      status,
    });
  }
}

/** A refused sign-in: the error body for the SPA, the login page again for the HTML form. */
function refuseLogin(reply: FastifyReply, credentials: Credentials, refusal: ApiError) {
  if (!credentials.fromForm) return sendApiError(reply, refusal);
  const page = loginPage({
    next: credentials.next,
    username: credentials.username,
    error: refusal.message,
  });
  return reply
    .code(refusal.status)
    .headers(refusal.headers)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(page);
}

function cookieOptions(secure: boolean) {
  return { path: '/', httpOnly: true, sameSite: 'strict' as const, secure };
}
