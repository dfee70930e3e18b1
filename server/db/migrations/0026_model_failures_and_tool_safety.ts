import type { Migration } from '../migration.ts'

export const modelFailuresAndToolSafety: Migration = {
  id: 26,
  name: 'model_failures_and_tool_safety',
  up(db) {
    db.exec(`
      -- Why a run failed, classified for the team ({kind, message, http_status}, Parley's own
      -- words, never the provider's text or a secret): null for every run that did not fail.
      ALTER TABLE agent_runs ADD COLUMN failure TEXT CHECK (failure IS NULL OR json_valid(failure));

      -- The desk's timeline shows a failed run where it happened, written in the same
      -- transaction as the run's end (as the status trigger writes handoffs). The run's end is
      -- written before the turn it causes, so the failure comes before the handoff it led to.
      CREATE TRIGGER desk_events_agent_failed AFTER UPDATE OF status ON agent_runs
        WHEN old.status = 'pending' AND new.status = 'done' AND new.outcome = 'failed' BEGIN
        INSERT INTO desk_events (conversation_id, kind, at, data) VALUES (
          new.conversation_id, 'agent_failed', new.finished_at,
          json_object('state', new.state, 'run_id', new.id, 'failure', json(coalesce(new.failure, '{"kind":"provider_error","message":"the model could not be used","http_status":null}'))));
      END;

      -- Tools a server does not mark as safe (readOnlyHint: true or destructiveHint: false) now
      -- start denied under tools.allow = null. An integration that already offered such tools
      -- keeps offering exactly the tools it listed: its allow list becomes those names, so
      -- nothing an agent used disappears on upgrade, and any tool added later starts denied.
      UPDATE integrations SET config = json_set(config, '$.tools.allow', json((
          SELECT json_group_array(json_extract(tool.value, '$.name')) FROM mcp_tool_catalogues c, json_each(c.tools) tool
          WHERE c.integration_id = integrations.id)))
        WHERE type = 'mcp' AND json_type(config, '$.tools.allow') = 'null'
          AND EXISTS (SELECT 1 FROM mcp_tool_catalogues c, json_each(c.tools) tool WHERE c.integration_id = integrations.id
            AND coalesce(json_type(tool.value, '$.annotations.readOnlyHint'), '') <> 'true'
            AND coalesce(json_type(tool.value, '$.annotations.destructiveHint'), '') <> 'false');
    `)
  },
}
