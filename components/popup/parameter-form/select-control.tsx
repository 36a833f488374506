export interface SelectControlProps {
  name: string;
  options: string[];
  value: string;
  describedBy?: string;
  onChange(value: string): void;
}

export function SelectControl({ name, options, value, describedBy, onChange }: SelectControlProps) {
  return (
    <select
      className="select-control"
      aria-label={name}
      aria-describedby={describedBy}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    >
      {options.map((option) => (
        <option key={option} value={option}>
          {option}
        </option>
      ))}
    </select>
  );
}
