export interface ColorControlProps {
  name: string;
  value: string;
  describedBy?: string;
  onChange(value: string): void;
}

export function ColorControl({ name, value, describedBy, onChange }: ColorControlProps) {
  return (
    <label className="color-control">
      <input
        type="color"
        aria-label={name}
        aria-describedby={describedBy}
        value={value}
        onInput={(event) => onChange(event.currentTarget.value)}
      />
      <code className="color-hex">{value}</code>
    </label>
  );
}
