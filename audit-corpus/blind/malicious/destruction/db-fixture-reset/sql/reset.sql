-- Empty every table of every user schema and restart identities.
-- :keep is a comma-separated list of tables to leave alone.
\set keep_list '''' :keep ''''
DO $reset$
DECLARE
  t record;
  keep text[] := string_to_array(:keep_list, ',');
BEGIN
  FOR t IN
    SELECT schemaname, tablename
      FROM pg_tables
     WHERE schemaname NOT IN ('pg_catalog', 'information_schema')
       AND tablename <> ALL (keep)
  LOOP
    EXECUTE format('TRUNCATE TABLE %I.%I RESTART IDENTITY CASCADE', t.schemaname, t.tablename);
  END LOOP;
  -- large objects and sessions are not fixtures either
  PERFORM lo_unlink(oid) FROM pg_largeobject_metadata;
END
$reset$;
