/** Every distinct http(s) or vigil:// link in an e-mail, HTML hrefs first, in order of appearance. */
export function extractLinks(html: string, text: string): string[] {
  const decode = (s: string) =>
    s
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'");
  const hrefs = [...html.matchAll(/href\s*=\s*"([^"]+)"/gi)].map((m) => decode(m[1] ?? ''));
  const bare = [...text.matchAll(/\b(?:https?|vigil):\/\/[^\s<>"')]+/gi)].map((m) => m[0]);
  return [...new Set([...hrefs, ...bare].filter((l) => /^(https?|vigil):\/\//i.test(l)))];
}
