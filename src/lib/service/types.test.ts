import { describe, expectTypeOf, it } from 'vitest';
import type {
  AutocompleteItem,
  ChangeRecord,
  FmcsaProfile,
  LiteProfile,
  MonitoringMutation,
  Profile,
  ServiceError,
} from './index.ts';

// Compile-time checks (tsc -p tsconfig.app.json): the generated types are what views rely on.
describe('generated types', () => {
  it('type the full profile by field kind', () => {
    expectTypeOf<Profile['indicator_authority']>().toEqualTypeOf<boolean | null | undefined>();
    expectTypeOf<Profile['total_power_units']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Profile['dot_number']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Profile['dba_flag']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Profile['network_graph_email']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<NonNullable<Profile['risk_factors']>['boc3_on_file']>().toEqualTypeOf<
      boolean | undefined
    >();
    expectTypeOf<
      NonNullable<NonNullable<Profile['geo_points']>['crash_locations']>[number]
    >().toEqualTypeOf<{ lat: number; lon: number; date?: string | undefined }>();
    type Violation = NonNullable<NonNullable<Profile['inspection_history']>[number]['violations']>;
    expectTypeOf<Violation[number]['oos_indicator']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Profile['extra']>().toEqualTypeOf<Record<string, unknown>>();
  });

  it('type the other bodies', () => {
    expectTypeOf<LiteProfile['risk_score']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<FmcsaProfile['ein']>().toEqualTypeOf<string | null>();
    expectTypeOf<FmcsaProfile['total_drivers']>().toEqualTypeOf<number | null>();
    expectTypeOf<AutocompleteItem['dot_number']>().toEqualTypeOf<string>();
    expectTypeOf<ChangeRecord['lastChangedDate']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<MonitoringMutation['failed']>().items.toHaveProperty('profileId');
    expectTypeOf<ServiceError['error']>().toEqualTypeOf<string>();
  });
});
