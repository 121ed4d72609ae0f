import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter as BullBoardAdapter } from '@bull-board/fastify';
import { fastifyCookie } from '@fastify/cookie';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '#app/config';
import { closeRedisConnection, createRedisConnection, QUEUES } from '#app/contracts';
import { Queue } from 'bullmq';
import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../auth/presented-key.js';
import { ApiError } from '../errors/api-error.js';
import { errorBody } from '../errors/error-body.js';
import { errorShapeOf } from '../errors/error-shape.js';
import { describeError } from '../errors/error-body.filter.js';
import { AdminTokenVerifier } from './admin-token.verifier.js';
import { crossSiteRefusal } from './dashboard-cross-site.js';
import { DASHBOARD_PAGES_SECURITY_POLICY, loginPage, logoutPage } from './dashboard-pages.js';
import {
  DASHBOARD_LOGIN_PATH,
  DASHBOARD_LOGOUT_PATH,
  DASHBOARD_PATH,
  DASHBOARD_SESSION_COOKIE,
  DASHBOARD_SESSION_SECONDS,
  dashboardReturnPath,
  dashboardSessionValue,
  isDashboardSession,
} from './dashboard-session.js';
import {
  bullBoardRefusal,
  bullMqRefusal,
  checkDashboardApiRequest,
  isDashboardApi,
  type BoardContents,
} from './queue-dashboard-api.js';

const FORM = 'application/x-www-form-urlencoded';
/** A login form holds a token and a return path. */
const FORM_BODY_LIMIT_BYTES = 16 * 1024;

const logger = new Logger('QueueDashboard');

/** The methods of bull-board's pages and API (HEAD comes with GET). */
const BOARD_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const DISABLED = () =>
  new ApiError(401, 'ADMIN_DISABLED', 'The queue dashboard is disabled', {
    hint: 'Set ADMIN_TOKEN to enable it',
  });

const FORM_REFUSED = () =>
  new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Only the login and the logout take a form body', {
    content_type: FORM,
    hint: 'Send JSON (Content-Type: application/json)',
  });

const NOT_LOGGED_IN = () =>
  new ApiError(401, 'AUTH_INVALID', 'A valid admin token or dashboard session is required', {
    hint: `Send "Authorization: Bearer <ADMIN_TOKEN>", or log in at ${DASHBOARD_LOGIN_PATH}`,
  });

/**
 * The queue dashboard (bull-board) at /v1/admin/queues, with retry and clean, behind the admin
 * token: `Authorization: Bearer <ADMIN_TOKEN>` or the session cookie its login page sets.
 * Without ADMIN_TOKEN only the login page answers, to say the dashboard is off.
 *
 * It is a Fastify plugin beside Nest's controllers, encapsulated so that its cookie parsing,
 * form parsing and authentication reach no other route; it is not in the OpenAPI document.
 * Call it before `app.init()`.
 */
export async function registerQueueDashboard(
  app: NestFastifyApplication,
  config: AppConfig,
): Promise<void> {
  const fastify: FastifyInstance = app.getHttpAdapter().getInstance();
  const auth = new DashboardAuth(config.adminToken, app.get(AdminTokenVerifier));
  await fastify.register(
    async (dashboard) => {
      await dashboard.register(fastifyCookie);
      refuseForms(dashboard);
      dashboard.setErrorHandler((error, request, reply) => sendError(request, reply, error));
      dashboard.addHook('onRequest', async (_request, reply) => {
        void reply.header('x-frame-options', 'DENY');
        // Under the service's no-referrer, a browser sends `Origin: null` with the changes a
        // page makes, its own forms included; same-origin lets it name this origin (which the
        // check below needs) and still sends no Referer to any other site.
        void reply.header('referrer-policy', 'same-origin');
      });
      // Ahead of authentication: a forged change, login or logout is refused before anything
      // counts a failure, sets a cookie or clears one.
      dashboard.addHook('onRequest', async (request, reply) => {
        const refusal = crossSiteRefusal(request);
        if (refusal) return sendError(request, reply, refusal);
      });
      dashboard.get('/login', (request, reply) => auth.loginPage(request, reply));
      // Only a POST logs out; bull-board's "Log out" link gets a page whose button posts it.
      dashboard.get('/logout', (_request, reply) => sendPage(reply, 200, logoutPage()));
      // The posts of the dashboard's own two forms, the only routes that take a form body.
      await dashboard.register(async (forms) => {
        takeForms(forms);
        forms.post('/login', (request, reply) => auth.login(request, reply));
        forms.post('/logout', (_request, reply) => auth.logout(reply));
      });
      await dashboard.register(async (guarded) => {
        guarded.addHook('onRequest', (request, reply) => auth.authenticate(request, reply));
        if (config.adminToken) {
          const board = queueBoard(config);
          guarded.addHook('onClose', board.close);
          answerApiInServiceShape(guarded, board.contents);
          await guarded.register(board.plugin);
        } else {
          // Off: every dashboard path still answers, through the hook, with why. (Not `all`:
          // a method no route serves gets 405, and bull-board serves these.)
          const off = () => Promise.reject(DISABLED());
          guarded.route({ method: BOARD_METHODS, url: '/', handler: off });
          guarded.route({ method: BOARD_METHODS, url: '/*', handler: off });
        }
      });
    },
    { prefix: DASHBOARD_PATH },
  );
}

/**
 * The board's JSON API: bad input is refused with a 400 before bull-board reads it, and what
 * bull-board answers with an error (its own refusals, or anything its handlers threw) leaves
 * in the service's error shape.
 */
function answerApiInServiceShape(guarded: FastifyInstance, board: BoardContents): void {
  const thrown = new WeakMap<FastifyRequest, unknown>();
  guarded.addHook('preHandler', async (request, reply) => {
    if (!isDashboardApi(request)) return;
    try {
      checkDashboardApiRequest(request, board);
    } catch (problem) {
      return sendError(request, reply, problem);
    }
  });
  // bull-board's error handler answers whatever a handler threw with its message; keep the
  // error itself, which onSend describes (a 503 for Redis, a logged 500 for the rest).
  guarded.addHook('onError', async (request, _reply, error) => {
    thrown.set(request, error);
  });
  guarded.addHook('onSend', async (request, reply, payload) => {
    if (!isDashboardApi(request)) return payload;
    const error = thrown.has(request)
      ? (bullMqRefusal(request, thrown.get(request)) ?? thrown.get(request))
      : bullBoardRefusal(reply.statusCode, payload);
    if (!error) return payload;
    void reply.header('content-type', 'application/json; charset=utf-8');
    return JSON.stringify(errorAnswer(request, reply, error));
  });
}

/** bull-board over every queue of the service, on its own Redis connection. */
function queueBoard(config: AppConfig): {
  plugin: FastifyPluginCallback;
  contents: BoardContents;
  close: () => Promise<void>;
} {
  // Fail fast when Redis is away, so the board answers with an error instead of hanging.
  const connection = createRedisConnection(config.redis, 'queue-dashboard', {
    maxRetriesPerRequest: 1,
    commandTimeout: 2_000,
  });
  const queues = QUEUES.map((name) => {
    const queue = new Queue(name, { connection, prefix: config.redis.queuePrefix });
    // The connection reports outages itself; without a listener the queue prints each one.
    queue.on('error', () => undefined);
    return queue;
  });
  const adapters = queues.map((queue) => new BullMQAdapter(queue));
  const serverAdapter = new BullBoardAdapter().setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: adapters,
    serverAdapter,
    options: {
      uiConfig: {
        boardTitle: 'Pricing queues',
        miscLinks: [{ text: 'Log out', url: DASHBOARD_LOGOUT_PATH }],
      },
    },
  });
  // Every queue is the same kind, so lists the same statuses.
  const [first] = adapters;
  return {
    plugin: serverAdapter.registerPlugin(),
    contents: {
      queueNames: adapters.map((adapter) => adapter.getName()),
      statuses: first?.getStatuses() ?? [],
      jobStatuses: first?.getJobStatuses() ?? [],
    },
    async close() {
      await Promise.all(queues.map((queue) => queue.close()));
      await closeRedisConnection(connection);
    },
  };
}

/** The login, the logout, and the check every dashboard route goes through. */
class DashboardAuth {
  constructor(
    private readonly adminToken: string | null,
    private readonly verifier: AdminTokenVerifier,
  ) {}

  /** onRequest of every dashboard route: admits the admin token or a session, else answers. */
  async authenticate(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
    try {
      return await this.check(request, reply);
    } catch (error) {
      // Answered here: bull-board's own error handler would describe a Redis failure.
      return sendError(request, reply, error);
    }
  }

  private async check(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
    const token = this.adminToken;
    if (!token) {
      return wantsPage(request)
        ? redirectToLogin(request, reply)
        : sendError(request, reply, DISABLED());
    }
    const presented = bearerToken(request.headers.authorization);
    if (presented !== undefined) {
      const refusal = await this.verifier.refusal(presented, request.ip);
      return refusal ? sendError(request, reply, refusal) : undefined;
    }
    if (isDashboardSession(request.cookies[DASHBOARD_SESSION_COOKIE], token)) return;
    return wantsPage(request)
      ? redirectToLogin(request, reply)
      : sendError(request, reply, NOT_LOGGED_IN());
  }

  async loginPage(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const next = dashboardReturnPath((request.query as { next?: unknown } | undefined)?.next);
    const token = this.adminToken;
    if (!token) return sendPage(reply, 401, loginPage({ next, disabled: true }));
    if (isDashboardSession(request.cookies[DASHBOARD_SESSION_COOKIE], token)) {
      return reply.redirect(next, 303);
    }
    return sendPage(reply, 200, loginPage({ next }));
  }

  /** POST of the form (or JSON `{token}`): a session cookie and the dashboard, or 401 / 429. */
  async login(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const body = (request.body ?? {}) as { token?: unknown; next?: unknown };
    const next = dashboardReturnPath(body.next);
    const asJson = !isForm(request);
    const token = this.adminToken;
    if (!token) {
      return asJson
        ? sendError(request, reply, DISABLED())
        : sendPage(reply, 401, loginPage({ next, disabled: true }));
    }
    const refused = await this.verifier.refusal(
      typeof body.token === 'string' ? body.token : undefined,
      request.ip,
    );
    if (!refused) {
      void reply.setCookie(DASHBOARD_SESSION_COOKIE, dashboardSessionValue(token), {
        path: DASHBOARD_PATH,
        maxAge: DASHBOARD_SESSION_SECONDS,
        httpOnly: true,
        sameSite: 'strict',
        // The service has no TLS of its own: this is https only as a proxy named in TRUST_PROXY
        // reports it (X-Forwarded-Proto); Fastify ignores the header from anyone else.
        secure: request.protocol === 'https',
      });
      return reply.redirect(next, 303);
    }
    if (asJson) return sendError(request, reply, refused);
    if (refused.status === 429) {
      const retryAfter = Number(refused.details?.retry_after);
      void reply.header('retry-after', String(retryAfter));
      return sendPage(
        reply,
        429,
        loginPage({ next, error: `Too many failed attempts; try again in ${retryAfter} s.` }),
      );
    }
    return sendPage(reply, 401, loginPage({ next, error: 'That is not the admin token.' }));
  }

  logout(reply: FastifyReply): FastifyReply {
    void reply.clearCookie(DASHBOARD_SESSION_COOKIE, { path: DASHBOARD_PATH });
    return reply.redirect(DASHBOARD_LOGIN_PATH, 303);
  }
}

/** A browser asking for a page (not the JSON API, not an asset): it gets the login page. */
function wantsPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '';
  if (path.startsWith(`${DASHBOARD_PATH}/api/`) || path.startsWith(`${DASHBOARD_PATH}/static/`)) {
    return false;
  }
  return (request.headers.accept ?? '').includes('text/html');
}

function redirectToLogin(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const next = dashboardReturnPath(request.url);
  return reply.redirect(`${DASHBOARD_LOGIN_PATH}?next=${encodeURIComponent(next)}`, 302);
}

function isForm(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith(FORM);
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', DASHBOARD_PAGES_SECURITY_POLICY)
    .send(html);
}

function sendError(request: FastifyRequest, reply: FastifyReply, exception: unknown): FastifyReply {
  return reply.send(errorAnswer(request, reply, exception));
}

/**
 * Anything thrown, as the service's documented error body (the reply's status and Retry-After
 * set to match); a 500 is logged, not described.
 */
function errorAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  exception: unknown,
): Record<string, unknown> {
  const description = describeError(exception);
  if (description.status >= 500 && description.status !== 503) {
    logger.error(
      `request ${request.id} ${request.method} ${request.routeOptions?.url ?? DASHBOARD_PATH}: ${
        (exception as Error)?.stack ?? String(exception)
      }`,
    );
  }
  const retryAfter = description.details?.retry_after;
  if (typeof retryAfter === 'number') void reply.header('retry-after', String(retryAfter));
  void reply.status(description.status);
  return errorBody(description, errorShapeOf(request), request.id);
}

/**
 * A form body anywhere but the login and logout posts is refused unread, saying where forms are
 * taken: a form is what another site's page can post without asking, and the board's API takes
 * JSON. (The root takes no form: the service's body parsers are JSON's, request-bodies.ts.)
 */
function refuseForms(dashboard: FastifyInstance): void {
  dashboard.addContentTypeParser(FORM, (_request, _payload, done) => done(FORM_REFUSED()));
}

/** The login and logout forms' bodies, in the scope of their two posts only. */
function takeForms(forms: FastifyInstance): void {
  forms.removeContentTypeParser(FORM);
  forms.addContentTypeParser(
    FORM,
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT_BYTES },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
}
