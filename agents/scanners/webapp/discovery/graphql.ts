// GraphQL at its usual paths. A `{ __typename }` query proves an endpoint; an introspection query that
// answers with the schema is reported; then, from that schema, up to five top-level query fields that
// need no argument are read with their scalar fields (queries only, never a mutation), and an answer
// that gives away personal data is reported like any other API's.
import type { Finding } from '../../../../shared/findings.ts';
import type { HttpClient } from '../../core/http-client.ts';
import { webappFinding } from '../rules.ts';
import { personalData } from './personal-data.ts';

export const graphqlPaths = ['/graphql', '/api/graphql', '/graphql/v1', '/v1/graphql', '/gql', '/query'];

interface TypeRef {
  kind: string;
  name: string | null;
  ofType?: TypeRef | null;
}
interface Field {
  name: string;
  args: { name: string; type: TypeRef }[];
  type: TypeRef;
}
interface SchemaType {
  name: string;
  kind: string;
  fields: Field[] | null;
}

const typeRef = 'kind name ofType { kind name ofType { kind name ofType { kind name } } }';
const introspection = `query VigilIntrospection { __schema { queryType { name } types { name kind fields { name args { name type { ${typeRef} } } type { ${typeRef} } } } } }`;

async function post(client: HttpClient, url: URL, query: string): Promise<unknown> {
  // Without the login of an authenticated scan: what anyone may query is the question.
  const response = await client.tryRequest(url, {
    anonymous: true,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query }),
  });
  try {
    return response ? (JSON.parse(response.body) as unknown) : null;
  } catch {
    // Guard: an HTML error page or a catch-all answer is simply not GraphQL.
    return null;
  }
}

const data = (answer: unknown): unknown =>
  answer && typeof answer === 'object' && 'data' in answer ? answer.data : null;

const named = (ref: TypeRef): TypeRef =>
  ref.ofType && (ref.kind === 'NON_NULL' || ref.kind === 'LIST') ? named(ref.ofType) : ref;

/** Query fields without required arguments whose type is an object with scalar fields, as queries. */
function readQueries(types: SchemaType[], queryType: string): { field: string; query: string }[] {
  const byName = new Map(types.map((t) => [t.name, t]));
  const out: { field: string; query: string }[] = [];
  for (const field of byName.get(queryType)?.fields ?? []) {
    if (field.name.startsWith('__') || field.args.some((a) => a.type.kind === 'NON_NULL')) {
      continue;
    }
    const target = byName.get(named(field.type).name ?? '');
    const scalars = (target?.kind === 'OBJECT' ? (target.fields ?? []) : [])
      .filter((f) => f.args.length === 0 && ['SCALAR', 'ENUM'].includes(named(f.type).kind))
      .map((f) => f.name)
      .slice(0, 20);
    if (scalars.length > 0) {
      out.push({ field: field.name, query: `query { ${field.name} { ${scalars.join(' ')} } }` });
    }
  }
  return out.slice(0, 5);
}

export async function graphqlFindings(
  client: HttpClient,
  origin: URL,
): Promise<{ endpoints: URL[]; findings: Finding[] }> {
  const endpoints: URL[] = [];
  const findings: Finding[] = [];
  for (const path of graphqlPaths) {
    const url = new URL(path, origin);
    const probe = data(await post(client, url, 'query { __typename }'));
    if (!probe || typeof (probe as { __typename?: unknown }).__typename !== 'string') {
      continue;
    }
    endpoints.push(url);
    const schema = (
      data(await post(client, url, introspection)) as {
        __schema?: { queryType?: { name?: string }; types?: SchemaType[] };
      } | null
    )?.__schema;
    if (!schema?.types || !schema.queryType?.name) {
      continue;
    }
    findings.push(
      webappFinding('web.graphql.introspection', {
        location: url.href,
        evidence: `an anonymous introspection query returned the schema: ${schema.types.filter((t) => !t.name.startsWith('__')).length} types, query type ${schema.queryType.name}`,
      }),
    );
    for (const { query } of readQueries(schema.types, schema.queryType.name)) {
      const exposed = personalData(data(await post(client, url, query)));
      if (exposed) {
        findings.push(
          webappFinding('web.api.personal-data', {
            location: url.href,
            evidence: `${query}: ${exposed.evidence}`,
            ...(exposed.credentials ? { cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N' } : {}),
          }),
        );
        break;
      }
    }
  }
  return { endpoints, findings };
}
