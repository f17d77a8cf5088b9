import { describe, expect, it } from 'vitest';
import { createDataset } from './index.ts';
import { profileOf, records, testDataset } from './dataset.test-support.ts';

const ds = testDataset();

describe('search by identifier', () => {
  it('finds a DOT exactly, or nothing', () => {
    expect(ds.search({ key: 'dot_number', value: '568253' })).toEqual(['568253']);
    expect(ds.search({ key: 'dot_number', value: '5000017' })).toEqual(['5000017']);
    expect(ds.search({ key: 'dot_number', value: '56825' })).toEqual([]);
    expect(ds.search({ key: 'dot_number', value: '9999998' })).toEqual([]);
  });

  it('finds dockets with or without prefix, and FF dockets from icc_dockets', () => {
    expect(ds.search({ key: 'docket_number', value: 'MC277621' })).toEqual(['568253']);
    expect(ds.search({ key: 'docket_number', value: '277621' })).toEqual(['568253']);
    expect(ds.search({ key: 'docket_number', value: 'MX277621' })).toEqual([]);
    expect(ds.search({ key: 'docket_number', value: 'FF12844' })).toEqual(['2456781']);
    const row = ds.getIdentity('5000042');
    if (row?.docket) {
      expect(ds.search({ key: 'docket_number', value: row.docket })).toEqual(['5000042']);
      expect(ds.search({ key: 'docket_number', value: row.docket.slice(2) })).toEqual(['5000042']);
    }
  });

  it('matches company names partially, legal or DBA, ranking exact and prefix matches first', () => {
    const results = ds.search({ key: 'company', value: 'hansen & adkins auto transport inc' });
    expect(results[0]).toBe('568253');
    expect(ds.search({ key: 'company', value: 'ironclad xpress' })).toContain('2214589');
    expect(ds.search({ key: 'company', value: 'coach lines' })).toContain('1893346');
    const broad = ds.search({ key: 'company', value: 'TRUCKING' });
    expect(broad.length).toBeGreaterThan(100);
  });

  it('matches historical names, e-mails, phones and addresses after the current ones', () => {
    expect(ds.search({ key: 'company', value: 'HANSEN AUTO TRANSPORT' })).toContain('568253');
    expect(ds.search({ key: 'company', value: 'IRONCLAD TRUCKING' })).toContain('2214589');
    expect(ds.search({ key: 'email', value: 'dispatch@hansenauto.net' })).toEqual(['568253']);
    expect(ds.search({ key: 'phone', value: '562-555-0142' })).toEqual(['568253']);
    expect(ds.search({ key: 'address', value: '2400 Logistics Way, Garland' })).toEqual(['3187452']);
  });

  it('finds the chameleon pair by shared phone, address and VIN', () => {
    const pair = ['3187452', '4418207'];
    expect(ds.search({ key: 'phone', value: '(469) 812-4471' })).toEqual(pair);
    expect(ds.search({ key: 'phone', value: '+1 469 812 4471' })).toEqual(pair);
    expect(ds.search({ key: 'address', value: '8800 elam rd., dallas' })).toEqual(pair);
    const young = profileOf(ds, '4418207');
    const shared = records(young.equipment_history).find((e) => e.multi_dot_flag === true);
    expect(ds.search({ key: 'vin', value: String(shared?.vin) })).toEqual(pair);
  });

  it('finds EINs with or without a hyphen', () => {
    expect(ds.search({ key: 'ein', value: '95-3364174' })).toEqual(['568253']);
    expect(ds.search({ key: 'ein', value: '953364174' })).toEqual(['568253']);
  });

  it('finds e-mail by full address or by domain', () => {
    expect(ds.search({ key: 'email', value: 'SAFETY@hansenadkins.com' })).toEqual(['568253']);
    const byDomain = ds.search({ key: 'email', value: '@hansenadkins.com' });
    expect(byDomain[0]).toBe('568253');
    expect(ds.search({ key: 'email', value: 'hansenadkins.com' })).toEqual(byDomain);
    for (const dot of byDomain) {
      expect(String(profileOf(ds, dot).email_address).endsWith('@hansenadkins.com')).toBe(true);
    }
    const gmail = ds.search({ key: 'email', value: 'gmail.com' });
    expect(gmail).toContain('3187452');
    expect(gmail.length).toBeGreaterThan(10);
  });

  it('finds VINs, plates (with state) and unit numbers (with type) of equipment and inspections', () => {
    const p = profileOf(ds, '1120987');
    const unit = records(p.equipment_history).find((e) => e.type === 'TRAILER');
    expect(unit).toBeDefined();
    expect(ds.search({ key: 'vin', value: String(unit?.vin) })).toEqual(['1120987']);
    expect(ds.search({ key: 'plate_number', value: String(unit?.insp_unit_license), state: 'TX' })).toEqual(['1120987']);
    expect(ds.search({ key: 'plate_number', value: String(unit?.insp_unit_license), state: 'CA' })).toEqual([]);
    const number = String(unit?.insp_unit_company);
    expect(ds.search({ key: 'unit_number', value: number, unitType: 'TRAILER' })).toContain('1120987');
    expect(ds.search({ key: 'unit_number', value: number, unitType: 'TRUCK' })).not.toContain('1120987');
    const bus = profileOf(ds, '1893346');
    const coach = records(records(bus.inspection_history)[0]?.vins)[0];
    expect(ds.search({ key: 'unit_number', value: String(coach?.insp_unit_company) })).toEqual(['1893346']);
  });

  it('finds population equipment by VIN, plate and unit number', () => {
    const dot = '5000123';
    const unit = records(profileOf(ds, dot).equipment_history)[0];
    expect(ds.search({ key: 'vin', value: String(unit?.vin) })).toContain(dot);
    expect(ds.search({ key: 'plate_number', value: String(unit?.insp_unit_license) })).toContain(dot);
    expect(ds.search({ key: 'unit_number', value: String(unit?.insp_unit_company), unitType: 'TRUCK' })).toContain(dot);
  });

  it('orders results by rank (exact, prefix, substring, historical), then DOT number', () => {
    const q = 'EAGLE';
    const rankOf = (dot: string) => {
      const id = ds.getIdentity(dot);
      const names = [id?.legalName ?? '', id?.dbaName ?? ''];
      if (names.includes(q)) return 0;
      if (names.some((n) => n.startsWith(q))) return 1;
      return names.some((n) => n.includes(q)) ? 2 : 3;
    };
    const results = ds.search({ key: 'company', value: q.toLowerCase() });
    const keyed = results.map((dot) => [rankOf(dot), Number(dot)] as const);
    const sorted = [...keyed].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    expect(new Set(keyed.map((k) => k[0])).size).toBeGreaterThan(1);
    expect(keyed).toEqual(sorted);
  });

  it('groups population carriers into networks that searches reveal', () => {
    let networked: string | undefined;
    for (let row = 0; row < 2000 && !networked; row += 1) {
      const p = profileOf(ds, String(5_000_000 + row));
      if ((p.network_graph_telephone_number as string[]).length > 0) networked = String(p.dot_number);
    }
    expect(networked).toBeDefined();
    const p = profileOf(ds, networked ?? '');
    const hits = ds.search({ key: 'phone', value: String(p.telephone_number) });
    expect(hits).toEqual([networked, ...(p.network_graph_telephone_number as string[])].sort((a, b) => Number(a) - Number(b)));
  });
});

describe('vehicle', () => {
  it('decodes a VIN consistently with the equipment record and lists its inspections across carriers', () => {
    const young = profileOf(ds, '4418207');
    const shared = records(young.equipment_history).find((e) => e.multi_dot_flag === true);
    const vehicle = ds.vehicle(String(shared?.vin));
    expect(vehicle?.decoded).toMatchObject({ make: shared?.make, model: shared?.model, model_year: shared?.model_year, body_class: shared?.body_class });
    const dots = new Set(vehicle?.inspections.map((i) => i.dot_number));
    expect(dots.has('3187452')).toBe(true);
    const dates = vehicle?.inspections.map((i) => String(i.insp_date)) ?? [];
    expect(dates).toEqual([...dates].sort().reverse());
    expect(ds.vehicle('1FUJHHDR0LA000000')).toBeUndefined();
  });
});

describe('autocomplete', () => {
  it('completes name prefixes case-insensitively within the limit, in name order', () => {
    const hits = ds.autocomplete('hans', 15);
    expect(hits.map((h) => h.dot)).toContain('568253');
    expect(hits.length).toBeLessThanOrEqual(15);
    for (const h of hits) expect([h.legalName, h.dbaName].some((n) => n?.startsWith('HANS'))).toBe(true);
    const many = ds.autocomplete('AM', 5);
    expect(many).toHaveLength(5);
    const names = many.map((h) => (h.legalName.startsWith('AM') ? h.legalName : (h.dbaName ?? '')));
    expect(names).toEqual([...names].sort());
  });

  it('puts the fixture carriers before the generated population', () => {
    const hits = ds.autocomplete('swif', 15);
    expect(hits[0]?.legalName).toBe('SWIFTPATH EXPRESS LLC');
    const rest = hits
      .slice(1)
      .map((h) => (h.legalName.startsWith('SWIF') ? h.legalName : (h.dbaName ?? '')));
    expect(rest.length).toBeGreaterThan(0);
    expect(rest).toEqual([...rest].sort());
  });

  it('completes DOT prefixes, shortest and lowest first', () => {
    const hits = ds.autocomplete('50001', 4).map((h) => h.dot);
    expect(hits).toEqual(['5000100', '5000101', '5000102', '5000103']);
    expect(ds.autocomplete('568253', 3)[0]?.dot).toBe('568253');
    expect(ds.autocomplete('zzzz', 5)).toEqual([]);
  });
});

describe('small populations', () => {
  it('still answers every search with only the curated and heavy carriers', () => {
    const tiny = createDataset({ seed: 1, population: 0 });
    expect(tiny.size).toBe(11);
    expect(tiny.search({ key: 'phone', value: '4698124471' })).toEqual(['3187452', '4418207']);
    expect(tiny.search({ key: 'company', value: 'benchmark' })).toEqual([tiny.heavyDot]);
    expect(tiny.autocomplete('39', 5).map((h) => h.dot)).toEqual([tiny.heavyDot]);
  });
});
