import type { PostgresMigration } from '../migration.ts'

export const modelFailuresAndToolSafety: PostgresMigration = {
  id: 26,
  name: 'model_failures_and_tool_safety',
  sql: `
    -- As SQLite's 0026: why a run failed, classified; the desk's timeline event written with
    -- the run's end; tools not marked safe start denied, an integration that offered them
    -- keeping exactly the tools it listed.
    ALTER TABLE agent_runs ADD COLUMN failure text CHECK (failure IS NULL OR json_valid(failure));

    CREATE FUNCTION desk_events_agent_failed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO desk_events (conversation_id, kind, at, data) VALUES (
        new.conversation_id, 'agent_failed', new.finished_at,
        json_build_object('state', new.state, 'run_id', new.id,
          'failure', coalesce(new.failure, '{"kind":"provider_error","message":"the model could not be used","http_status":null}')::json)::text);
      RETURN NULL;
    END $$;
    CREATE TRIGGER desk_events_agent_failed AFTER UPDATE OF status ON agent_runs
      FOR EACH ROW WHEN (old.status = 'pending' AND new.status = 'done' AND new.outcome = 'failed') EXECUTE FUNCTION desk_events_agent_failed();

    UPDATE integrations SET config = jsonb_set(config::jsonb, '{tools,allow}', (
        SELECT coalesce(jsonb_agg(tool->>'name'), '[]'::jsonb) FROM mcp_tool_catalogues c, jsonb_array_elements(c.tools::jsonb) tool
        WHERE c.integration_id = integrations.id))::text
      WHERE type = 'mcp' AND jsonb_typeof(config::jsonb #> '{tools,allow}') = 'null'
        AND EXISTS (SELECT 1 FROM mcp_tool_catalogues c, jsonb_array_elements(c.tools::jsonb) tool WHERE c.integration_id = integrations.id
          AND coalesce((tool #> '{annotations,readOnlyHint}')::text, '') <> 'true'
          AND coalesce((tool #> '{annotations,destructiveHint}')::text, '') <> 'false');
  `,
}
