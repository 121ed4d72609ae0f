import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event log, projection checkpoints, read models and API keys. Each driver gets its own
 * spelling of the same schema; read-model timestamps are stored as the ISO 8601 text the API
 * serves, the log's recorded_at as the database's own timestamp type.
 */
export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.options.type === 'postgres';
    const statements = postgres ? postgresSchema : sqliteSchema;
    for (const statement of [...statements, ...sharedSchema]) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.options.type === 'postgres';
    for (const table of [
      'api_keys',
      'pricing_snapshots',
      'scrape_files',
      'pricing_pages',
      'companies',
      'projection_checkpoints',
      'events',
    ]) {
      await queryRunner.query(`DROP TABLE IF EXISTS ${table}`);
    }
    if (postgres) await queryRunner.query('DROP FUNCTION IF EXISTS events_append_only()');
  }
}

const postgresSchema = [
  // transaction_id lets projectors read only what no running transaction can still add before
  // (pg_snapshot_xmin); the "C" collation makes stream-id prefix ranges byte-wise.
  `CREATE TABLE events (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    stream_id varchar(400) COLLATE "C" NOT NULL,
    stream_version integer NOT NULL,
    type varchar(100) NOT NULL,
    schema_version integer NOT NULL,
    payload text NOT NULL,
    metadata text NOT NULL,
    idempotency_key varchar(200) NOT NULL,
    transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
    recorded_at timestamptz NOT NULL,
    CONSTRAINT "uq_events_stream_version" UNIQUE ("stream_id", "stream_version"),
    CONSTRAINT "uq_events_idempotency_key" UNIQUE ("idempotency_key")
  )`,
  `CREATE INDEX "ix_events_transaction_seq" ON "events" ("transaction_id", "seq")`,
  `CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     RAISE EXCEPTION 'the event log is append-only: % refused', TG_OP;
   END $$`,
  `CREATE TRIGGER events_no_update_or_delete BEFORE UPDATE OR DELETE ON events
     FOR EACH ROW EXECUTE FUNCTION events_append_only()`,
  `CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
     FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()`,
];

const sqliteSchema = [
  // SQLite has one writer at a time, so seq is assigned in commit order: transaction_id stays 0.
  `CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_id varchar(400) NOT NULL,
    stream_version integer NOT NULL,
    type varchar(100) NOT NULL,
    schema_version integer NOT NULL,
    payload text NOT NULL,
    metadata text NOT NULL,
    idempotency_key varchar(200) NOT NULL,
    transaction_id integer NOT NULL DEFAULT 0,
    recorded_at varchar(32) NOT NULL,
    CONSTRAINT "uq_events_stream_version" UNIQUE ("stream_id", "stream_version"),
    CONSTRAINT "uq_events_idempotency_key" UNIQUE ("idempotency_key")
  )`,
  `CREATE TRIGGER events_no_update BEFORE UPDATE ON events
   BEGIN SELECT RAISE(ABORT, 'the event log is append-only: UPDATE refused'); END`,
  `CREATE TRIGGER events_no_delete BEFORE DELETE ON events
   BEGIN SELECT RAISE(ABORT, 'the event log is append-only: DELETE refused'); END`,
];

const sharedSchema = [
  `CREATE TABLE projection_checkpoints (
    name varchar(100) NOT NULL PRIMARY KEY,
    last_seq bigint NOT NULL,
    last_transaction_id varchar(20) NOT NULL,
    updated_at varchar(32) NOT NULL
  )`,
  `CREATE TABLE companies (
    id integer NOT NULL PRIMARY KEY,
    slug varchar(255) NOT NULL,
    name varchar(255) NOT NULL,
    category varchar(64) NOT NULL,
    employees varchar(32) NOT NULL,
    employees_min integer NOT NULL,
    url varchar(2048) NOT NULL,
    created_at varchar(32) NOT NULL,
    updated_at varchar(32) NOT NULL,
    CONSTRAINT "uq_companies_slug" UNIQUE ("slug")
  )`,
  `CREATE TABLE pricing_pages (
    id varchar(36) NOT NULL PRIMARY KEY,
    company_slug varchar(255) NOT NULL,
    page_slug varchar(100) NOT NULL,
    composite_slug varchar(400) NOT NULL,
    pricing_page_url varchar(2048) NOT NULL,
    created_at varchar(32) NOT NULL,
    CONSTRAINT "uq_pricing_pages_composite_slug" UNIQUE ("composite_slug"),
    CONSTRAINT "uq_pricing_pages_company_page" UNIQUE ("company_slug", "page_slug")
  )`,
  `CREATE TABLE scrape_files (
    id varchar(36) NOT NULL PRIMARY KEY,
    page_id varchar(36) NOT NULL,
    company_slug varchar(255) NOT NULL,
    page_slug varchar(100) NOT NULL,
    version varchar(8) NOT NULL,
    scraper varchar(64) NOT NULL,
    page_url varchar(2048) NOT NULL,
    screenshot_url varchar(2048),
    markdown_url varchar(2048),
    html_url varchar(2048),
    ocr_url varchar(2048),
    valid boolean,
    score integer,
    banner_free boolean,
    created_at varchar(32) NOT NULL,
    updated_at varchar(32) NOT NULL,
    CONSTRAINT "uq_scrape_files_page_version_scraper" UNIQUE ("page_id", "version", "scraper")
  )`,
  `CREATE INDEX "ix_scrape_files_company_version" ON "scrape_files" ("company_slug", "version")`,
  `CREATE TABLE pricing_snapshots (
    id varchar(36) NOT NULL PRIMARY KEY,
    page_id varchar(36) NOT NULL,
    company_slug varchar(255) NOT NULL,
    page_slug varchar(100) NOT NULL,
    version varchar(8) NOT NULL,
    document text NOT NULL,
    created_at varchar(32) NOT NULL,
    CONSTRAINT "uq_pricing_snapshots_page_version" UNIQUE ("page_id", "version")
  )`,
  `CREATE TABLE api_keys (
    id varchar(36) NOT NULL PRIMARY KEY,
    name varchar(200) NOT NULL,
    key_prefix varchar(16) NOT NULL,
    key_hash varchar(64) NOT NULL,
    plan varchar(64) NOT NULL,
    scopes varchar(200) NOT NULL,
    expires_at varchar(32),
    revoked_at varchar(32),
    created_at varchar(32) NOT NULL,
    last_used_at varchar(32),
    CONSTRAINT "uq_api_keys_key_hash" UNIQUE ("key_hash")
  )`,
];
