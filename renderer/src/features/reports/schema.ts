// The New Configuration form: defaults soc_compliance, daily, enabled (docs/product.md §5); the name is required
// and, like the description, kept within what the database accepts.
import { z } from 'zod';

import { REPORT_TYPES } from '../../../../shared/constants.ts';

export const SCHEDULE_TYPES = ['one_time', 'daily', 'weekly', 'monthly'] as const;

export const configurationSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(200, 'Name must be at most 200 characters'),
  description: z.string().trim().max(2000, 'Description must be at most 2000 characters'),
  report_type: z.enum(REPORT_TYPES),
  schedule_type: z.enum(SCHEDULE_TYPES),
  is_enabled: z.boolean(),
});
export type ConfigurationValues = z.infer<typeof configurationSchema>;

export const configurationDefaults: ConfigurationValues = {
  name: '',
  description: '',
  report_type: 'soc_compliance',
  schedule_type: 'daily',
  is_enabled: true,
};

export const REPORT_TYPE_LABELS: Record<(typeof REPORT_TYPES)[number], string> = {
  soc_compliance: 'SOC Compliance',
  penetration_test: 'Penetration Test',
  security_assessment: 'Security Assessment',
  vulnerability_scan: 'Vulnerability Scan',
};

export const SCHEDULE_LABELS: Record<(typeof SCHEDULE_TYPES)[number], string> = {
  one_time: 'One time',
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
};
