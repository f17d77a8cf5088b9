import { cloneElement, type ReactElement } from 'react';
import { ResponsiveContainer } from 'recharts';

interface ChartFrameProps {
  /** a fixed width (tests: jsdom measures 0×0); without it the chart fills its container */
  width?: number | undefined;
  height: number;
  children: ReactElement<{ width?: number; height?: number }>;
}

/** A recharts chart at a fixed size, or responsive to its container's width. */
export function ChartFrame({ width, height, children }: ChartFrameProps) {
  if (width !== undefined) return cloneElement(children, { width, height });
  return (
    <ResponsiveContainer width="100%" height={height}>
      {children}
    </ResponsiveContainer>
  );
}
