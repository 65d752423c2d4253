-- The auth server's rate limits (docs/product.md §17.7): one token bucket per key (an IP address, an account, a
-- factor, a challenge, an e-mail address), kept in the database so that a restart does not reset them.
-- Not reachable through the REST API: the schema is not exposed and the API roles have no grants.
create schema if not exists vigil_platform;
create table if not exists vigil_platform.auth_rate_limits (
  key text primary key,
  tokens double precision not null,
  -- Whether the last request on this key was let through.
  allowed boolean not null,
  updated_at timestamptz not null
);
create index if not exists auth_rate_limits_updated_idx on vigil_platform.auth_rate_limits (updated_at);
revoke all on vigil_platform.auth_rate_limits from public;
