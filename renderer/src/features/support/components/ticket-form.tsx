// The support ticket form: validated, then a one-second simulated submit (no backend call, docs/product.md §7).
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';

import { TICKET_PRIORITIES, TIMINGS } from '../../../../../shared/constants.ts';
import { TOASTS } from '../../../../../shared/messages.ts';
import { ticketSchema, type TicketValues } from '../../../../../shared/validation.ts';
import { Button } from '../../../components/ui/button.tsx';
import { fieldAria, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { optionsOf, SelectField } from '../../../components/ui/select-field.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { toast } from '../../../hooks/use-toast.ts';

const PRIORITY_LABELS: Record<(typeof TICKET_PRIORITIES)[number], string> = {
  critical: 'Critical',
  high: 'High',
  normal: 'Normal',
  low: 'Low',
};

const empty = { priority: '' as TicketValues['priority'], subject: '', description: '' };

export function TicketForm() {
  const form = useForm<TicketValues>({ resolver: zodResolver(ticketSchema), defaultValues: empty });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async () => {
    await new Promise((resolve) => setTimeout(resolve, TIMINGS.ticketSubmitDelayMs));
    toast(TOASTS.ticketSubmitted);
    form.reset(empty);
  });

  return (
    <form className="space-y-4" noValidate onSubmit={(event) => void onSubmit(event)}>
      <SelectField
        control={form.control}
        name="priority"
        id="ticket-priority"
        label="Priority"
        error={errors.priority?.message}
        placeholder="Select priority"
        options={optionsOf(TICKET_PRIORITIES, PRIORITY_LABELS)}
      />
      <FormField id="ticket-subject" label="Subject" error={errors.subject?.message}>
        <Input
          placeholder="Brief description of the issue"
          {...fieldAria('ticket-subject', errors.subject?.message)}
          {...form.register('subject')}
        />
      </FormField>
      <FormField id="ticket-description" label="Description" error={errors.description?.message}>
        <Textarea
          rows={6}
          placeholder="What happened, when, and what you expected"
          {...fieldAria('ticket-description', errors.description?.message)}
          {...form.register('description')}
        />
      </FormField>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Submitting...' : 'Submit Ticket'}
      </Button>
    </form>
  );
}
