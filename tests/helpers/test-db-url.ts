/** The test database. Tests refuse to run against anything but a local server. */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_test";
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) {
    throw new Error(`TEST_DATABASE_URL must point at a local database, got host ${host}`);
  }
  return url;
}
