-- The second factor's restrictive policy (20261124000000_aal2_enforcement.sql) on the table added since:
-- every table in public but the catalogue has one (tests/integration/rls/aal.test.ts checks).
create policy "billing_trials: aal2 once a second factor exists" on public.billing_trials as restrictive for all
  to authenticated using ((select a.satisfied from private.assurance a)) with check ((select a.satisfied from private.assurance a));
