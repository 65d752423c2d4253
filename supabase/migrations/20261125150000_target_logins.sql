-- Logins of scan targets (docs/product.md §10.1): what an authenticated web scan signs in with (a login form with a
-- user name and password, a session cookie, or an Authorization header). The scan-target-login edge
-- function seals each one with AES-256-GCM under a key that is never in the database (the embedded
-- stack's key file, or a function secret on hosted Supabase), bound to its owner and target; only the
-- service role (the function, the agent workers) can read or write the table. No client read ever
-- returns a row, not even to the login's owner: there is no grant and no policy for anon or
-- authenticated. The owner sees only which kind of login is saved and where it signs in, on the target.

create table public.scan_target_logins (
  target_id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null check (kind in ('form', 'cookie', 'header')),
  -- v1.<key id>.<iv>.<ciphertext and tag> (shared/sealed-login.ts); never the login itself.
  sealed text not null check (char_length(sealed) between 40 and 16000 and sealed ~ '^v1\.[0-9a-f]{16}\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$'),
  key_id text not null check (key_id ~ '^[0-9a-f]{16}$' and sealed like 'v1.' || key_id || '.%'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.scan_target_logins is
  'sealed logins of scan targets; service role only (written by the scan-target-login function, read by agent workers)';

-- A login belongs to its target's owner: the pair must match a target row, so one customer's login can
-- never be filed under another customer's target.
alter table public.scan_targets add constraint scan_targets_id_user_id_key unique (id, user_id);
alter table public.scan_target_logins
  add constraint scan_target_logins_target_fkey foreign key (target_id, user_id)
  references public.scan_targets (id, user_id) on delete cascade;

create trigger set_updated_at before update on public.scan_target_logins
  for each row execute function public.set_updated_at();
alter table public.scan_target_logins enable row level security;
alter table public.scan_target_logins force row level security;
revoke all on table public.scan_target_logins from public, anon, authenticated;
grant select, insert, update, delete on table public.scan_target_logins to service_role;
-- No policy for anon or authenticated: with row-level security on and no grant, every client read,
-- write and count is refused. The service role bypasses row-level security.

-- What the owner may know of a saved login: its kind and the login page, written by the function.
alter table public.scan_targets
  add column login_kind text check (login_kind in ('form', 'cookie', 'header')),
  add column login_url text check (char_length(login_url) <= 2048 and login_url ~ '^https?://[^[:space:][:cntrl:]]+$'),
  add column login_updated_at timestamptz,
  add constraint scan_targets_login_summary_check check ((login_kind is null) = (login_updated_at is null));
comment on column public.scan_targets.login_kind is
  'the kind of login saved for authenticated scans (the login itself is in scan_target_logins, sealed)';

-- As on every table in public (20261124000000_aal2_enforcement.sql): even if a grant ever appeared, a
-- password-only session of a user with a second factor would still reach nothing.
create policy "scan_target_logins: aal2 once a second factor exists" on public.scan_target_logins
  as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
