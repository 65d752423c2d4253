-- The Alerts page refreshes live when the agents recompute insights and recommendations after a scan,
-- not only when events and findings change. REPLICA IDENTITY FULL so realtime can check row-level security
-- on the old row of updates and deletes.

alter table public.ml_insights replica identity full;
alter table public.ai_security_recommendations replica identity full;

alter publication supabase_realtime add table
  public.ml_insights,
  public.ai_security_recommendations;
