// A labelled select bound to a react-hook-form field, with its validation message (FormField).
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';

import { fieldAria, FormField } from './form-field.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from './select.tsx';

export interface SelectOption {
  value: string;
  label: string;
}

/** Options from a list of values and their display labels. */
export function optionsOf<V extends string>(
  values: readonly V[],
  labels?: Record<V, string>,
): SelectOption[] {
  return values.map((value) => ({ value, label: labels ? labels[value] : value }));
}

export function SelectField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  error,
  placeholder,
  options,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  id: string;
  label: string;
  error?: string;
  placeholder?: string;
  options: readonly SelectOption[];
}) {
  return (
    <FormField id={id} label={label} error={error}>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <Select value={field.value} onValueChange={field.onChange}>
            <SelectTrigger {...fieldAria(id, error)} onBlur={field.onBlur}>
              <SelectValue placeholder={placeholder} />
            </SelectTrigger>
            <SelectContent>
              {options.map((option) => (
                <SelectItem key={option.value} value={option.value}>
                  {option.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      />
    </FormField>
  );
}
