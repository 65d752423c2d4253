import { z } from 'zod';

// The table's check: https, a host, no spaces or control characters, at most 2048 characters.
export const webhookUrlSchema = z
  .string()
  .trim()
  .max(2048, 'The URL may be at most 2048 characters long')
  .regex(/^https:\/\/[^\s\p{Cc}/?#]+(\/[^\s\p{Cc}]*)?$/u, 'Please enter a valid https:// URL');
