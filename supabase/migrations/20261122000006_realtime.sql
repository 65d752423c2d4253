-- Live UI: the tables whose changes the app and the desktop watcher follow. REPLICA IDENTITY FULL lets
-- realtime check row-level security on the old row of updates and deletes and send it to subscribers.

alter table public.subscriptions replica identity full;
alter table public.user_agent_subscriptions replica identity full;
alter table public.scan_results replica identity full;
alter table public.security_events replica identity full;
alter table public.generated_reports replica identity full;

alter publication supabase_realtime add table
  public.subscriptions,
  public.user_agent_subscriptions,
  public.scan_results,
  public.security_events,
  public.generated_reports;
