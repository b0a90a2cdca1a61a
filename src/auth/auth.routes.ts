/** POST /auth/token: exchanges a consumer key and secret for a bearer token (docs/api.md, "Tokens"). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors, errorAnswers, errorCase, ok, type RateLimiter } from '../http/index.ts';
import type { AuthService } from './auth.service.ts';
import { createThrottledTokenIssuer } from './token-throttle.ts';
import { operation } from '../http/index.ts';
import { authOperations as docs } from './auth.operations.ts';

export const TokenRequest = Type.Object(
  {
    consumer_key: Type.String({ minLength: 1, maxLength: 128 }),
    consumer_secret: Type.String({ minLength: 1, maxLength: 256 }),
  },
  {
    $id: 'TokenRequest',
    additionalProperties: false,
    examples: [
      {
        consumer_key: 'ck_Xq3v9LmT2pR8sW1yZ4bN6cD0',
        consumer_secret: 'cs_q8Vn2Lw5Rt7Yp1Kd4Hs9Jf3Gb6Mc0Xz2Ae5Ui8Oo1Pl',
      },
    ],
  },
);

export const TokenResponse = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('bearer'),
    expires_in: Type.Integer({ description: 'Validity in seconds; request a new token before it ends.' }),
  },
  {
    $id: 'TokenResponse',
    examples: [
      {
        access_token: 'afn1.eyJzdWIiOiJja19YcTN2OUxtVDJwUjhzVzF5WjRiTjZjRDAifQ.Zm9v',
        token_type: 'bearer',
        expires_in: 3600,
      },
    ],
  },
);

export interface AuthRoutesDeps {
  auth: Pick<AuthService, 'issueToken'>;
  limiter: RateLimiter;
  perMinute: number;
}

export const authRoutes =
  (deps: AuthRoutesDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const issue = createThrottledTokenIssuer(deps);
    app.post(
      '/auth/token',
      {
        schema: {
          ...operation(docs, 'getToken'),
          tags: ['auth'],
          security: [],
          headers: Type.Object({ 'accept-version': Type.Optional(Type.String({ maxLength: 16 })) }),
          body: TokenRequest,
          response: {
            200: ok('token', TokenResponse, 'The access token.', ['Cache-Control']),
            ...errorAnswers({
              access: 'token',
              body: true,
              cases: {
                400: [
                  errorCase(
                    'A missing field',
                    errors.invalidInput([{ field: 'consumer_secret', errorDetail: 'is required' }]),
                  ),
                  errorCase(
                    'An Accept-Version other than v1',
                    errors.invalidInput([{ field: 'Accept-Version', errorDetail: 'only v1 is supported' }]),
                  ),
                ],
              },
            }),
          },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const version = request.headers['accept-version'];
        if (version !== undefined && version !== 'v1') {
          throw errors.invalidInput([{ field: 'Accept-Version', errorDetail: 'only v1 is supported' }]);
        }
        return issue(request.ip, request.body.consumer_key, request.body.consumer_secret);
      },
    );
  };
