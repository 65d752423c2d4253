// Stack traces and debug pages in a response body, shared by the web and API scanners: a trace names
// source files, line numbers and frameworks, which is what an attacker needs to aim the next request.
import { decodeHTML } from 'entities';

const stackTrace = [
  /\n\s+at [\w.$<>]+ \(?[^\s()]+:\d+:\d+\)?/, // Node / V8
  /\n\s+at (?:[\w.$<>]+ \[as [\w$<>]+\] \([^\s()]+|(?:\/|[A-Za-z]:\\|file:\/\/)[^\s()]*):\d+:\d+/, // V8: aliased, anonymous
  /Traceback \(most recent call last\)/, // Python
  /\n\s+at [\w.$]+\([\w]+\.java:\d+\)/, // Java
  /goroutine \d+ \[running\]/, // Go
  /\.php on line \d+|Stack trace:\s*#0/, // PHP
  /\.php(?:<\/b>)?:\d+\s*(?:<br \/>)?\s*Stack trace:/, // PHP 8 uncaught exceptions
  /System\.[\w.]+Exception:| {3}at [\w.]+\(.*\) in .*:line \d+/, // .NET
  // Ruby. Starts only where a path starts: from every character of a long word (a minified bundle, a 1 MB
  // run of letters) the search would try again, taking minutes on one body.
  /(?<![\w/.-])[\w/.-]+\.rb:\d+:in [`'][^']+'/,
  /\bat \/[\w/.-]+\.p[lm] line \d+\.?/, // Perl
];

/** Debug pages of frameworks, shown instead of a generic error page. */
const debugPage = [
  /You're seeing this error because you have <code>DEBUG = True<\/code>/, // Django
  /Using the URLconf defined in <code>/, // Django's debug 404
  /The debugger caught an exception in your WSGI application/, // Werkzeug
  /A problem occurred in a Python script\./, // cgitb
  /<title>Whitelabel Error Page<\/title>[\s\S]*(Exception|at [\w.$]+\()/, // Spring Boot with a trace
  /<h1>Routing Error<\/h1>|<h2 style="[^"]*">No route matches/, // Rails development
  /class="exception-message|Symfony\\Component\\[\w\\]+Exception|Whoops! There was an error/, // Symfony, Laravel
  /<h2> <i>Runtime Error<\/i> <\/h2>|Server Error in '\/[^']*' Application/, // ASP.NET yellow screen
];

/**
 * The body as plain lines. Traces inside JSON error bodies ("trace": "...\n\tat ...") have their line breaks
 * escaped; HTML error pages (Express's errorhandler) put each frame in a list item indented with &nbsp;.
 */
function asLines(body: string): string {
  const unescaped = body.replace(/\\[nt]/g, (escape) => (escape === '\\n' ? '\n' : '\t'));
  return /<(?:li|br)\b/i.test(unescaped)
    ? decodeHTML(unescaped.replace(/<(?:br\s*\/?|li\b[^>]*)>/gi, '\n'))
    : unescaped;
}

export function findStackTrace(body: string): string | null {
  const text = asLines(body);
  for (const pattern of [...stackTrace, ...debugPage]) {
    const match = pattern.exec(text);
    if (match) {
      return match[0]
        .replace(/<[^>]+>/g, '')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 120);
    }
  }
  return null;
}

/** Server and framework versions an error page names, e.g. "Apache Tomcat/9.0.70", "ASP.NET Version:4.8". */
export function versionsNamed(body: string): string[] {
  const found = body.match(
    /\b(Apache Tomcat|Jetty|Apache|nginx|lighttpd|Microsoft-IIS|OpenResty|openresty|Werkzeug|Python|PHP|Phusion Passenger|WEBrick|WildFly|JBoss|GlassFish Server Open Source Edition|Express)\/v?\d+\.\d+(?:\.\d+)?|ASP\.NET Version:\s?\d+\.\d+[\d.]*|Django (?:Version|version):?\s*(?:<\/th>\s*<td>)?\s*\d+\.\d+(?:\.\d+)?/g,
  );
  return [...new Set((found ?? []).map((v) => v.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ')))].slice(0, 4);
}
