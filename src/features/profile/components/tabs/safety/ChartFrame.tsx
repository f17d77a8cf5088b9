import { cloneElement, type ReactElement } from 'react';
import { ResponsiveContainer } from 'recharts';

interface ChartFrameProps {
  /** a fixed width (tests: jsdom measures 0×0); without it the chart fills its container */
  width?: number | undefined;
  height: number;
  /** told the responsive chart's width whenever it changes */
  onWidth?: ((width: number) => void) | undefined;
  children: ReactElement<{ width?: number; height?: number }>;
}

/** A recharts chart at a fixed size, or responsive to its container's width. */
export function ChartFrame({ width, height, onWidth, children }: ChartFrameProps) {
  if (width !== undefined) return cloneElement(children, { width, height });
  return (
    <ResponsiveContainer
      width="100%"
      height={height}
      onResize={onWidth ? (measured) => onWidth(measured) : undefined}
    >
      {children}
    </ResponsiveContainer>
  );
}
