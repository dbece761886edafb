/** `{ a: { b: 1 }, c: [x] }` → multipart fields `a[b]=1`, `c[0]=x`, as the SDK sends them. */
export function toForm(value: unknown, form = new FormData(), prefix = ''): FormData {
  if (value instanceof Blob) form.set(prefix, value);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) toForm(v, form, prefix ? `${prefix}[${k}]` : k);
  } else if (typeof value === 'boolean') form.set(prefix, value ? '1' : '0');
  else if (value !== undefined) form.set(prefix, String(value));
  return form;
}
