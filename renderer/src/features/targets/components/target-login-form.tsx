import { type FormEvent, useState } from 'react';

import { TargetLogin, type TargetLoginKind } from '../../../../../shared/target-login.ts';
import { Button } from '../../../components/ui/button.tsx';
import { fieldAria, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { toast } from '../../../hooks/use-toast.ts';
import { useSaveTargetLogin } from '../api/target-login.ts';

type Field =
  | 'login_url'
  | 'username_field'
  | 'password_field'
  | 'username'
  | 'password'
  | 'cookie'
  | 'header_name'
  | 'header_value'
  | 'logged_in_marker';

const kinds: { value: TargetLoginKind; label: string }[] = [
  { value: 'form', label: 'Login form (user name and password)' },
  { value: 'cookie', label: 'Session cookie' },
  { value: 'header', label: 'Header (e.g. Authorization: Bearer …)' },
];

const fieldsOf: Record<TargetLoginKind, Field[]> = {
  form: ['login_url', 'username_field', 'password_field', 'username', 'password', 'logged_in_marker'],
  cookie: ['cookie', 'logged_in_marker'],
  header: ['header_name', 'header_value', 'logged_in_marker'],
};

const labels: Record<Field, string> = {
  login_url: 'Login page URL',
  username_field: 'User name field',
  password_field: 'Password field',
  username: 'User name',
  password: 'Password',
  cookie: 'Cookie',
  header_name: 'Header name',
  header_value: 'Header value',
  logged_in_marker: 'Logged-in text (optional)',
};

const secret = new Set<Field>(['password', 'cookie', 'header_value']);

/**
 * Enters a target's login. Every field starts empty: a saved login is never shown again, only replaced.
 * Secrets are typed into password inputs the browser does not offer to remember.
 */
export function TargetLoginForm({
  targetId,
  targetUrl,
  onDone,
}: {
  targetId: string;
  targetUrl: string;
  onDone: () => void;
}) {
  const save = useSaveTargetLogin();
  const [kind, setKind] = useState<TargetLoginKind>('form');
  const [values, setValues] = useState<Partial<Record<Field, string>>>({ header_name: 'Authorization' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const idOf = (field: Field) => `login-${targetId}-${field}`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const entered = Object.fromEntries(fieldsOf[kind].map((f) => [f, values[f] ?? '']));
    const parsed = TargetLogin.safeParse({ kind, ...entered });
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(
      { targetId, login: parsed.data },
      {
        onSuccess: () => {
          setValues({ header_name: 'Authorization' });
          toast({
            title: 'Login saved',
            description:
              'Scans of this target log in first. The login is stored encrypted and never shown again.',
          });
          onDone();
        },
        onError: (error) =>
          toast({ title: 'Login not saved', description: error.message, variant: 'destructive' }),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-3 rounded-md border p-3" aria-label="Scan login">
      <div className="space-y-2">
        <label htmlFor={`login-${targetId}-kind`} className="text-sm font-medium">
          Login type
        </label>
        <NativeSelect
          id={`login-${targetId}-kind`}
          value={kind}
          onChange={(e) => {
            setKind(e.target.value as TargetLoginKind);
            setErrors({});
          }}
        >
          {kinds.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-3 md:grid-cols-2">
        {fieldsOf[kind].map((field) => (
          <FormField key={field} id={idOf(field)} label={labels[field]} error={errors[field]}>
            <Input
              {...fieldAria(idOf(field), errors[field])}
              type={secret.has(field) ? 'password' : 'text'}
              autoComplete={secret.has(field) ? 'new-password' : 'off'}
              value={values[field] ?? ''}
              placeholder={
                field === 'login_url'
                  ? `${new URL(targetUrl).origin}/login`
                  : field === 'username_field'
                    ? 'email'
                    : field === 'password_field'
                      ? 'password'
                      : field === 'logged_in_marker'
                        ? 'Log out'
                        : undefined
              }
              onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
            />
          </FormField>
        ))}
      </div>
      <p className="text-xs text-muted-foreground">
        Scans log in with this, never follow logout links, and log in again if the session ends. Field names
        are the form inputs&apos; name or id. The logged-in text is something every page shows only while you
        are logged in.
      </p>
      <div className="flex gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save login'}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
