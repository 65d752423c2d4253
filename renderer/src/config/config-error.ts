export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`The app configuration is invalid:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}
