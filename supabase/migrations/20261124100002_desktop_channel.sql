-- The desktop app's realtime channel (docs/product.md §16): the main process follows its user's scan results and
-- security events on topic vigil-desktop-<user id>-<n>. As a public channel anyone, anon included, could
-- join that topic and send or receive broadcasts on it. It is a private channel now, authorised as
-- Supabase Realtime does by row-level security on realtime.messages: only the user named in the topic may
-- join (SELECT), and nobody may send on it (no INSERT policy; the desktop only listens). Its
-- postgres_changes stay filtered by each table's own row-level security.
create policy "desktop channel: its user joins" on realtime.messages
  for select to authenticated
  using (
    realtime.messages.extension in ('broadcast', 'presence')
    and realtime.topic() ~ ('^vigil-desktop-' || (select auth.uid())::text || '-[0-9]{1,9}$')
  );
