// zod schemas for every form and boundary the renderer validates (docs/product.md §5).
import { z } from 'zod';

import { INDUSTRIES, TICKET_PRIORITIES } from './constants.ts';

const email = z
  .string()
  .trim()
  .min(1, 'Email is required')
  .pipe(z.email('Please enter a valid email address'));

export const signInSchema = z.object({
  email,
  password: z.string().min(6, 'Password must be at least 6 characters long'),
});
export type SignInValues = z.infer<typeof signInSchema>;

export const signUpSchema = signInSchema.extend({
  fullName: z.string().trim().min(1, 'Full name is required').max(200, 'Full name is too long'),
  companyName: z.string().trim().min(1, 'Company name is required').max(200, 'Company name is too long'),
  // An empty select arrives as '' and must read as "not chosen", not as an unknown value.
  industryType: z
    .string()
    .refine(
      (value): value is (typeof INDUSTRIES)[number] => (INDUSTRIES as readonly string[]).includes(value),
      {
        message: 'Please select an industry type',
      },
    ),
});
export type SignUpValues = z.output<typeof signUpSchema>;
export type SignUpInput = z.input<typeof signUpSchema>;

export const forgotPasswordSchema = z.object({ email });
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z
  .object({
    password: z.string().min(6, 'Password must be at least 6 characters'),
    confirmPassword: z.string(),
  })
  .refine((values) => values.password === values.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type ResetPasswordValues = z.infer<typeof resetPasswordSchema>;

export const ticketSchema = z.object({
  priority: z.enum(TICKET_PRIORITIES, { error: 'Please select a priority' }),
  subject: z.string().trim().min(1, 'Subject is required').max(200, 'Subject is too long'),
  description: z.string().trim().min(1, 'Description is required').max(5000, 'Description is too long'),
});
export type TicketValues = z.infer<typeof ticketSchema>;

/** A supabase-js session is usable only with both tokens and an expiry (docs/product.md §5). */
export const sessionShapeSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_at: z.number(),
});
