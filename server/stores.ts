import type { SQL } from 'bun'
import type { Database } from 'bun:sqlite'
import { postgresInstanceStore } from './instance/postgres-store.ts'
import { sqliteInstanceStore } from './instance/sqlite-store.ts'
import type { InstanceStore } from './instance/store.ts'
import type { CatalogueStore } from './mcp/catalogue-store.ts'
import { postgresCatalogueStore } from './mcp/postgres-catalogue-store.ts'
import { sqliteCatalogueStore } from './mcp/sqlite-catalogue-store.ts'
import type { ActivityStore } from './chatbots/activity-store.ts'
import { postgresActivityStore } from './chatbots/postgres-activity-store.ts'
import { sqliteActivityStore } from './chatbots/sqlite-activity-store.ts'
import { postgresOperationsStore } from './operations/postgres-store.ts'
import { sqliteOperationsStore } from './operations/sqlite-store.ts'
import type { OperationsStore } from './operations/store.ts'
import { postgresFlowStore } from './flows/postgres-store.ts'
import { sqliteFlowStore } from './flows/sqlite-store.ts'
import type { FlowStore } from './flows/store.ts'
import { postgresAttachmentStore } from './attachments/postgres-store.ts'
import { sqliteAttachmentStore } from './attachments/sqlite-store.ts'
import type { AttachmentStore } from './attachments/store.ts'
import { postgresRunStore } from './autopilot/postgres-run-store.ts'
import type { RunStore } from './autopilot/run-store.ts'
import { sqliteRunStore } from './autopilot/sqlite-run-store.ts'
import type { OutboxClaims } from './outbox/outbox-claims.ts'
import { outboxStore } from './outbox/outbox-store.ts'
import { postgresOutboxClaims } from './outbox/postgres-outbox-claims.ts'
import { sqliteOutboxClaims } from './outbox/sqlite-outbox-claims.ts'
import { postgresPeopleStore } from './people/postgres-store.ts'
import { sqlitePeopleStore } from './people/sqlite-store.ts'
import type { PeopleStore } from './people/store.ts'
import { postgresWorkspaceStore } from './workspaces/postgres-store.ts'
import { sqliteWorkspaceStore } from './workspaces/sqlite-store.ts'
import type { WorkspaceStore } from './workspaces/store.ts'
import { postgresIntegrationStore } from './integrations/postgres-store.ts'
import { sqliteIntegrationStore } from './integrations/sqlite-store.ts'
import type { IntegrationStore } from './integrations/store.ts'
import type { OAuthStore } from './mcp/oauth-store.ts'
import { postgresOAuthStore } from './mcp/postgres-oauth-store.ts'
import { sqliteOAuthStore } from './mcp/sqlite-oauth-store.ts'
import type { InboundStore } from './channels/rest-api/inbound-store.ts'
import { postgresInboundStore } from './channels/rest-api/postgres-inbound-store.ts'
import { sqliteInboundStore } from './channels/rest-api/sqlite-inbound-store.ts'
import type { KnowledgeStore } from './knowledge/store.ts'
import { postgresKnowledgeStore } from './knowledge/postgres-store.ts'
import { sqliteKnowledgeStore } from './knowledge/sqlite-store.ts'
import { postgresLabelStore } from './labels/postgres-store.ts'
import { sqliteLabelStore } from './labels/sqlite-store.ts'
import type { LabelStore } from './labels/store.ts'
import { postgresBusinessHoursStore } from './business-hours/postgres-store.ts'
import { sqliteBusinessHoursStore } from './business-hours/sqlite-store.ts'
import type { BusinessHoursStore } from './business-hours/store.ts'

/**
 * Every store behind the seam, and the one place that picks its SQLite or its PostgreSQL side
 * (docs/architecture.md, "The store seam"). A unit's `tx` is a `Stores` bound to its
 * transaction. Domains move behind the seam one at a time (docs/postgres-plan.md): each adds
 * its interface here and a line to each builder.
 */
export interface Stores {
  instance: InstanceStore
  operations: OperationsStore
  outboxClaims: OutboxClaims
  workspaces: WorkspaceStore
  people: PeopleStore
  chatbotActivity: ActivityStore
  mcpCatalogues: CatalogueStore
  flows: FlowStore
  attachments: AttachmentStore
  agentRuns: RunStore
  integrations: IntegrationStore
  mcpOAuth: OAuthStore
  restApiInbound: InboundStore
  knowledge: KnowledgeStore
  labels: LabelStore
  businessHours: BusinessHoursStore
}

export function sqliteStores(db: Database): Stores {
  return {
    instance: sqliteInstanceStore(db),
    operations: sqliteOperationsStore(db),
    outboxClaims: sqliteOutboxClaims(outboxStore(db)),
    workspaces: sqliteWorkspaceStore(db),
    people: sqlitePeopleStore(db),
    chatbotActivity: sqliteActivityStore(db),
    mcpCatalogues: sqliteCatalogueStore(db),
    flows: sqliteFlowStore(db),
    attachments: sqliteAttachmentStore(db),
    agentRuns: sqliteRunStore(db),
    integrations: sqliteIntegrationStore(db),
    mcpOAuth: sqliteOAuthStore(db),
    restApiInbound: sqliteInboundStore(db),
    knowledge: sqliteKnowledgeStore(db),
    labels: sqliteLabelStore(db),
    businessHours: sqliteBusinessHoursStore(db),
  }
}

/** Built per unit on a transaction, and once on the pool: cheap (closures, no statements prepared). */
export function postgresStores(sql: SQL): Stores {
  return {
    instance: postgresInstanceStore(sql),
    operations: postgresOperationsStore(sql),
    outboxClaims: postgresOutboxClaims(sql),
    workspaces: postgresWorkspaceStore(sql),
    people: postgresPeopleStore(sql),
    chatbotActivity: postgresActivityStore(sql),
    mcpCatalogues: postgresCatalogueStore(sql),
    flows: postgresFlowStore(sql),
    attachments: postgresAttachmentStore(sql),
    agentRuns: postgresRunStore(sql),
    integrations: postgresIntegrationStore(sql),
    mcpOAuth: postgresOAuthStore(sql),
    restApiInbound: postgresInboundStore(sql),
    knowledge: postgresKnowledgeStore(sql),
    labels: postgresLabelStore(sql),
    businessHours: postgresBusinessHoursStore(sql),
  }
}
