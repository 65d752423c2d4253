import { Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';

import { FormField, fieldAria } from '../../../components/ui/form-field.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import { useAddTarget } from '../api/add-target.ts';
import { parseTargetInput, type TargetKind } from '../lib/target-input.ts';

const kinds: { value: TargetKind; label: string; field: string; placeholder: string }[] = [
  { value: 'url', label: 'Website (URL)', field: 'Website URL', placeholder: 'https://www.example.com' },
  {
    value: 'host',
    label: 'Server (host)',
    field: 'Host name or IP address',
    placeholder: 'server.example.com',
  },
  { value: 'api', label: 'API (base URL)', field: 'API base URL', placeholder: 'https://api.example.com' },
];

/** Adds a URL, host or API target (with an optional OpenAPI document URL). */
export function AddTargetForm({ userId }: { userId: string }) {
  const add = useAddTarget();
  const [kind, setKind] = useState<TargetKind>('url');
  const [value, setValue] = useState('');
  const [openapiUrl, setOpenapiUrl] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'value' | 'openapiUrl', string>>>({});
  const current = kinds.find((k) => k.value === kind) ?? kinds[0]!;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseTargetInput({ kind, value, openapiUrl });
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    add.mutate(
      { userId, ...parsed.value },
      {
        onSuccess: () => {
          setValue('');
          setOpenapiUrl('');
          toast({ title: 'Target added', description: 'Serve the verification token, then choose Verify.' });
        },
        onError: (error) => setErrors({ value: error.message }),
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="grid gap-4 md:grid-cols-[12rem_1fr] md:items-start"
      aria-label="Add a target"
    >
      <div className="space-y-2">
        <label htmlFor="target-kind" className="text-sm font-medium">
          Target type
        </label>
        <NativeSelect id="target-kind" value={kind} onChange={(e) => setKind(e.target.value as TargetKind)}>
          {kinds.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="space-y-4">
        <FormField id="target-value" label={current.field} error={errors.value}>
          <Input
            {...fieldAria('target-value', errors.value)}
            value={value}
            placeholder={current.placeholder}
            onChange={(e) => setValue(e.target.value)}
          />
        </FormField>
        {kind === 'api' ? (
          <FormField id="target-openapi" label="OpenAPI document URL (optional)" error={errors.openapiUrl}>
            <Input
              {...fieldAria('target-openapi', errors.openapiUrl)}
              value={openapiUrl}
              placeholder="https://api.example.com/openapi.json"
              onChange={(e) => setOpenapiUrl(e.target.value)}
            />
          </FormField>
        ) : null}
        <Button type="submit" disabled={add.isPending}>
          <Plus aria-hidden />
          {add.isPending ? 'Adding…' : 'Add Target'}
        </Button>
      </div>
    </form>
  );
}
