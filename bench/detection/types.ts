// The detection benchmark (docs/scanners/benches.md): our scanners beside the reference tools a security engineer would
// run instead (nmap, testssl.sh, sslscan, ssh-audit, wapiti, whatweb, sqlmap), on the same real, badly
// configured servers, inside one private network namespace. Each class of checks (TLS, SSH, services, web
// files, injection…) is one module in bench/detection/classes/ exporting `fixtures`; the runner
// (bench/detection-netns.ts) finds them itself, so adding a class touches no other file.
import type { ScanResult } from '../../agents/scanners/run-scan.ts';
import type { PlantedIssue, RunningFixture } from '../../tests/fixtures/planted.ts';

/** What one run of a reference tool found on a fixture. */
export interface ToolRun {
  /**
   * The planted issues the tool reported, mapped from its own output by the class module (a parser of
   * the tool's JSON or text, with the rule that maps each item written down in code).
   */
  found: PlantedIssue[];
  /**
   * What it reported that is false on this fixture (for its precision): a problem the server does not
   * have. True observations missing from the planted list are not counted against it.
   */
  falsePositives: string[];
  /**
   * What the tool flagged that maps to none of our rules, in its own words (`id: text`): perhaps a problem
   * we do not look for at all. Never dropped: the run lists them per class as tool-only findings, and each
   * needs a verdict in bench/detection/tool-only-review.ts (the tool's false positive, a policy we do not
   * share, or a problem we miss, which counts against us) before its class can pass.
   */
  toolOnly?: string[];
  /** Wall-clock time of the tool's run. */
  ms: number;
  note?: string;
}

export interface ReferenceTool {
  /** As printed in the table: `testssl.sh`, `ssh-audit`, `nmap --script ftp-anon`… */
  name: string;
  /** The executable that must be on PATH, and the Debian package that provides it. */
  command: string;
  aptPackage: string;
  /** Which planted issues it is expected to look for at all (its recall counts only those). */
  covers(issue: PlantedIssue): boolean;
  run(fixture: RunningFixture): Promise<ToolRun>;
}

export interface DetectionFixture {
  /** e.g. `nginx 1.22 TLS: anonymous and CBC suites, 1024-bit key`. */
  name: string;
  /** The class each planted issue belongs to (tls, ssh, services, web-files, injection, spa…). */
  classOf(issue: PlantedIssue): string;
  /** Starts the real server (from apt) configured badly; `planted` is its full list (empty: must be silent). */
  start(): Promise<RunningFixture>;
  /**
   * Our scan of it, as `npm run scan` would run it; `detail` is added to the row's note (e.g. the time of
   * the class's own checks when the scan also does other work, such as nmap's version detection).
   */
  scan(fixture: RunningFixture): Promise<ScanResult & { detail?: string }>;
  tools: ReferenceTool[];
}
