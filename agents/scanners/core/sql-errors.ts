// Database error messages that leak into responses when a quote breaks a query. Shared by the
// web-application and API scanners' injection probes.
const signatures: [string, RegExp][] = [
  ['MySQL', /You have an error in your SQL syntax|Warning: mysqli?_|MySqlException|com\.mysql\.jdbc/i],
  [
    'PostgreSQL',
    /syntax error at or near|unterminated quoted string at or near|PG::SyntaxError|org\.postgresql\.util\.PSQLException|psycopg2\.errors/i,
  ],
  [
    'SQLite',
    /SQLITE_ERROR|sqlite3\.OperationalError|SQLite3::SQLException|unrecognized token: "'|near "[^"]*": syntax error/i,
  ],
  [
    'SQL Server',
    /Unclosed quotation mark after the character string|Microsoft OLE DB Provider for SQL Server|System\.Data\.SqlClient\.SqlException/i,
  ],
  ['Oracle', /ORA-\d{5}|quoted string not properly terminated/i],
  ['generic', /SQLSTATE\[\w+\]/],
];

/** The database and matched text of the first SQL error in `body`, if any. */
export function findSqlError(body: string): { database: string; match: string } | null {
  for (const [database, pattern] of signatures) {
    const match = pattern.exec(body);
    if (match) {
      return { database, match: match[0] };
    }
  }
  return null;
}
