// zod compiles object parsers with `new Function` when it may; the CSP has no 'unsafe-eval', so even its
// probe for eval is a reported violation. Every schema in the renderer parses without code generation.
import { config } from 'zod/v4/core';

config({ jitless: true });
