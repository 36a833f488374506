export interface ToggleControlProps {
  name: string;
  value: boolean;
  describedBy?: string;
  onChange(value: boolean): void;
}

export function ToggleControl({ name, value, describedBy, onChange }: ToggleControlProps) {
  return (
    <label className="toggle-control">
      <input
        type="checkbox"
        role="switch"
        aria-label={name}
        aria-describedby={describedBy}
        checked={value}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className="toggle-track" aria-hidden="true" />
      <span className="toggle-text" aria-hidden="true">
        {value ? 'On' : 'Off'}
      </span>
    </label>
  );
}
