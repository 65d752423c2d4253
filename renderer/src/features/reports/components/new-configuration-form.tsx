// The New Configuration form: closes on Cancel or after saving; toasts per docs/product.md §8.
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';

import { REPORT_TYPES } from '../../../../../shared/constants.ts';
import { Button } from '../../../components/ui/button.tsx';
import { fieldAria, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { optionsOf, SelectField } from '../../../components/ui/select-field.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import { useCreateReportConfiguration } from '../api/save-report-configuration.ts';
import { REPORT_TOASTS } from '../messages.ts';
import {
  configurationDefaults,
  configurationSchema,
  REPORT_TYPE_LABELS,
  SCHEDULE_LABELS,
  SCHEDULE_TYPES,
  type ConfigurationValues,
} from '../schema.ts';

export function NewConfigurationForm({ onClose }: { onClose: () => void }) {
  const form = useForm<ConfigurationValues>({
    resolver: zodResolver(configurationSchema),
    defaultValues: configurationDefaults,
  });
  const create = useCreateReportConfiguration();
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await create.mutateAsync(values);
      toast(REPORT_TOASTS.configurationCreated);
      onClose();
    } catch {
      // Guard: the form stays open with what was typed, so the person can retry.
      toast(REPORT_TOASTS.saveFailed);
    }
  });

  return (
    <form
      className="space-y-4 rounded-lg border p-4"
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      aria-label="New Configuration"
    >
      <FormField id="config-name" label="Name" error={errors.name?.message}>
        <Input
          maxLength={200}
          placeholder="e.g. Monthly SOC 2 evidence"
          {...fieldAria('config-name', errors.name?.message)}
          {...form.register('name')}
        />
      </FormField>
      <FormField id="config-description" label="Description (optional)" error={errors.description?.message}>
        <Textarea
          rows={3}
          maxLength={2000}
          {...fieldAria('config-description', errors.description?.message)}
          {...form.register('description')}
        />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          control={form.control}
          name="report_type"
          id="config-type"
          label="Report type"
          options={optionsOf(REPORT_TYPES, REPORT_TYPE_LABELS)}
        />
        <SelectField
          control={form.control}
          name="schedule_type"
          id="config-schedule"
          label="Schedule"
          options={optionsOf(SCHEDULE_TYPES, SCHEDULE_LABELS)}
        />
      </div>
      <div className="flex items-center gap-2">
        <Controller
          control={form.control}
          name="is_enabled"
          render={({ field }) => (
            <Switch id="config-enabled" checked={field.value} onCheckedChange={field.onChange} />
          )}
        />
        <Label htmlFor="config-enabled">Enabled</Label>
      </div>
      <div className="flex gap-2">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Saving...' : 'Save Configuration'}
        </Button>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
