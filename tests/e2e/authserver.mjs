// A real OAuth 2.1 authorization server for the tests: npm oidc-provider (a certified OpenID Provider).
// Usage: node authserver.mjs CONFIG.json   (OIDC_PROVIDER: path of oidc-provider's lib/index.js)
// CONFIG: {issuer, port, jwks: {keys: [private JWKs]},
//          clients: [{client_id, client_secret, scope, redirect_uris?, auth_method?, default_resource?}],
//          resources: {"<resource URL>": {scope, format: "jwt" | "opaque", ttl}},
//          rotateRefreshTokens?: true (every refresh spends its refresh token; a reuse revokes the grant)}
// Client credentials grant with RFC 8707 resource indicators: a token's audience is the resource
// it was requested for; JWT resources get RFC 9068 access tokens signed with CONFIG.jwks.
// A client with redirect_uris also gets the authorization code grant (PKCE, refresh tokens),
// through oidc-provider's development login and consent pages: any login name is accepted and
// becomes the subject (a scripted browser fills them in). Without a resource parameter, its tokens
// are for its default_resource.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { default: Provider, errors } = await import(pathToFileURL(process.env.OIDC_PROVIDER).href);

const scopes = new Set(['openid']);
for (const resource of Object.values(config.resources)) resource.scope.split(' ').forEach((s) => scopes.add(s));
for (const client of config.clients) client.scope.split(' ').forEach((s) => scopes.add(s));

const interactive = config.clients.some((c) => c.redirect_uris);
const defaults = new Map(config.clients.map((c) => [c.client_id, c.default_resource]));

const provider = new Provider(config.issuer, {
  jwks: config.jwks,
  clients: config.clients.map((c) => ({
    client_id: c.client_id,
    client_secret: c.client_secret,
    grant_types: c.redirect_uris ? ['authorization_code', 'refresh_token', 'client_credentials'] : ['client_credentials'],
    redirect_uris: c.redirect_uris || [],
    response_types: c.redirect_uris ? ['code'] : [],
    token_endpoint_auth_method: c.auth_method || 'client_secret_basic',
    scope: c.scope,
  })),
  scopes: [...scopes],
  pkce: { required: () => true },
  issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
  ...(config.rotateRefreshTokens ? { rotateRefreshToken: true } : {}),
  features: {
    devInteractions: { enabled: interactive },
    clientCredentials: { enabled: true },
    introspection: { enabled: true, allowedPolicy: async () => true },
    resourceIndicators: {
      enabled: true,
      useGrantedResource: async () => true,
      defaultResource: async (ctx, client) => (client && defaults.get(client.clientId)) || undefined,
      getResourceServerInfo: async (ctx, indicator) => {
        const resource = config.resources[indicator];
        if (!resource) throw new errors.InvalidTarget();
        const info = { scope: resource.scope, audience: indicator, accessTokenTTL: resource.ttl || 600 };
        if (resource.format === 'jwt') return { ...info, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
        return { ...info, accessTokenFormat: 'opaque' };
      },
    },
  },
});
provider.proxy = true;
const server = provider.listen(config.port, '127.0.0.1', () => {
  process.stdout.write(`listening ${config.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
provider.on('server_error', (ctx, err) => process.stderr.write(`server_error: ${err.stack}\n`));
