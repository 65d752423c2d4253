-- The biometric second factor (docs/product.md §2, §7, §9): the two-factor-auth edge function's registration
-- challenges and the WebAuthn credentials it verified. The auth server's factor (auth.mfa_factors) is
-- what counts for the assurance level; these rows are the function's own record of the ceremony.
-- Both tables are service-only: row-level security on, no policies, no grants to clients.

create table public.webauthn_challenges (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  -- base64url, at least 16 random bytes; unique so a challenge names exactly one ceremony.
  challenge text not null unique check (char_length(challenge) >= 22),
  -- The auth server's WebAuthn factor and challenge this registration answers.
  factor_id uuid not null,
  auth_challenge_id uuid not null,
  rp_id text not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
comment on table public.webauthn_challenges is 'two-factor-auth registration challenges: bound to one user, single use, 60 s';
create index webauthn_challenges_user_id_idx on public.webauthn_challenges (user_id, created_at desc);

create table public.webauthn_credentials (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  factor_id uuid not null unique,
  credential_id text not null unique,
  public_key text not null,
  counter bigint not null default 0 check (counter >= 0),
  transports text[] not null default '{}',
  aaguid text,
  device_type text,
  backed_up boolean,
  created_at timestamptz not null default now()
);
comment on table public.webauthn_credentials is 'WebAuthn credentials registered through two-factor-auth (credential id, COSE public key, counter)';
create index webauthn_credentials_user_id_idx on public.webauthn_credentials (user_id);

alter table public.webauthn_challenges enable row level security;
alter table public.webauthn_credentials enable row level security;
revoke all on table public.webauthn_challenges, public.webauthn_credentials from anon, authenticated;
grant all on table public.webauthn_challenges, public.webauthn_credentials to service_role;
