import { describe, expect, test } from "vitest";
import { CARRIER_ALIASES } from "./carrier-aliases";
import { CARRIER_CATALOGUE } from "./carrier-catalogue.server";
import { canonicalCarrierName, carrierKey, coreKey, matchCarrier, sameCarrier, suggestCarrier } from "./carrier-names";

const catalogue = CARRIER_CATALOGUE.map((c, i) => ({ id: `c${i}`, name: c.name }));
const matched = (name: string) => matchCarrier(name, catalogue)?.carrier.name ?? null;

// Spellings seen in AMS exports (writing companies, abbreviations, upper case, punctuation).
const SPELLINGS: [string, string][] = [
  ["Erie", "Erie Insurance"],
  ["ERIE INSURANCE", "Erie Insurance"],
  ["Erie Ins. Co.", "Erie Insurance"],
  ["Erie Insurance Group", "Erie Insurance"],
  ["Erie Insurance Exchange", "Erie Insurance"],
  ["Auto-Owners", "Auto-Owners Insurance"],
  ["Auto Owners Ins Co", "Auto-Owners Insurance"],
  ["AUTO-OWNERS INSURANCE COMPANY", "Auto-Owners Insurance"],
  ["Owners Insurance Company", "Auto-Owners Insurance"],
  ["Progressive Casualty Insurance Company", "Progressive"],
  ["PROGRESSIVE DIRECT", "Progressive"],
  ["Progressive Northern Ins Co", "Progressive"],
  ["Safeco Insurance Company of America", "Safeco"],
  ["SAFECO INS CO OF ILLINOIS", "Safeco"],
  ["Liberty Mutual Insurance", "Liberty Mutual"],
  ["Liberty Mutual Fire Ins Co", "Liberty Mutual"],
  ["LM Insurance Corp", "Liberty Mutual"],
  ["Nationwide Mutual Insurance Company", "Nationwide"],
  ["Nationwide Property & Casualty", "Nationwide"],
  ["Hartford", "The Hartford"],
  ["Hartford Fire Insurance Co", "The Hartford"],
  ["Twin City Fire Insurance Company", "The Hartford"],
  ["The Travelers Companies", "Travelers"],
  ["Travelers Indemnity Co", "Travelers"],
  ["Travelers Property Casualty Co of America", "Travelers"],
  ["Chubb Group of Insurance Companies", "Chubb"],
  ["ACE American Insurance Company", "Chubb"],
  ["Cincinnati Ins Co", "Cincinnati Insurance"],
  ["The Cincinnati Insurance Companies", "Cincinnati Insurance"],
  ["Hanover Insurance Group", "The Hanover"],
  ["Kemper Auto", "Kemper"],
  ["Foremost Insurance Company Grand Rapids, Michigan", "Foremost"],
  ["Foremost Signature", "Foremost"],
  ["Mercury Casualty Company", "Mercury Insurance"],
  ["MERCURY INS GROUP", "Mercury Insurance"],
  ["Openly, LLC", "Openly"],
  ["Branch Insurance Exchange", "Branch"],
  ["Westfield National Insurance Co", "Westfield"],
  ["Selective Way Insurance Company", "Selective"],
  ["Selective Ins. Co. of America", "Selective"],
  ["AmGUARD Insurance Company", "Berkshire Hathaway GUARD"],
  ["Berkshire Hathaway GUARD Insurance Companies", "Berkshire Hathaway GUARD"],
  ["Employers Preferred Insurance Company", "Employers"],
  ["Continental Casualty Company", "CNA"],
  ["Philadelphia Indemnity Insurance Company", "Philadelphia Insurance"],
  ["PHLY", "Philadelphia Insurance"],
  ["American Modern Home Insurance Company", "American Modern"],
  ["Universal Property & Casualty Insurance Company", "Universal Property"],
];

// Look-alike names of different carriers: matching them would put a policy with the wrong company.
const NEAR_MISSES: [string, string][] = [
  ["Liberty National Life", "a Globe Life company, not Liberty Mutual"],
  ["Employers Mutual Casualty Company", "EMC Insurance, not EMPLOYERS"],
  ["Employers Mutual", "EMC Insurance, not EMPLOYERS"],
  ["Hartford Steam Boiler", "Munich Re's HSB, not The Hartford"],
  ["Erie & Niagara Insurance Association", "a New York mutual, not Erie Insurance"],
  ["Cincinnati Equitable Insurance Co", "a separate mutual, not Cincinnati Insurance"],
  ["Mercer Insurance Group", "not Mercury Insurance"],
  ["United Property & Casualty", "UPC Insurance, not Universal Property"],
  ["Auto Club Insurance Association", "AAA, not Auto-Owners"],
  ["Philadelphia Contributionship", "not Philadelphia Insurance"],
  ["Safety Insurance", "a Massachusetts carrier, not Safeco"],
  ["American National Property & Casualty", "not American Modern"],
  ["Berkshire Hathaway Homestate Companies", "BHHC, not Berkshire Hathaway GUARD"],
  ["American Family Insurance", "not American Modern"],
  ["Western National Mutual", "not Westfield"],
  ["Progressive Farmers Mutual", "no such writing company of Progressive"],
];

describe("carrier names", () => {
  test.each(SPELLINGS)("%s is %s", (spelling, carrier) => {
    expect(matched(spelling)).toBe(carrier);
  });

  test("at least 40 real-world spellings are covered", () => {
    expect(SPELLINGS.length).toBeGreaterThanOrEqual(40);
  });

  test.each(NEAR_MISSES)("%s matches no catalogue carrier (%s)", (spelling) => {
    expect(matched(spelling)).toBeNull();
  });

  test("normalisation folds case, punctuation, '&' and legal-form suffixes", () => {
    expect(coreKey("  The  Smith & Sons Mutual Ins. Co. ")).toBe("smith and sons");
    expect(coreKey("Smith and Sons Insurance Group")).toBe("smith and sons");
    expect(coreKey("Insurance")).toBe("insurance");
  });

  test("carriers outside the catalogue still become one carrier per group", () => {
    expect(canonicalCarrierName("State Farm Mutual Automobile Insurance Co")).toBe("State Farm");
    expect(carrierKey("STATE FARM FIRE & CASUALTY")).toBe(carrierKey("State Farm"));
    expect(carrierKey("Bob's Mutual Insurance Co")).toBe(carrierKey("Bobs Mutual"));
    expect(matched("State Farm")).toBeNull();
  });

  test("the incumbent is recognised whichever spelling a quote or policy used", () => {
    expect(sameCarrier("Erie", "Erie Insurance")).toBe(true);
    expect(sameCarrier("Auto-Owners", "Auto-Owners Insurance")).toBe(true);
    expect(sameCarrier("Liberty Mutual", "Liberty National")).toBe(false);
    expect(sameCarrier("", "")).toBe(false);
  });

  test("no alias spelling is claimed by two carriers", () => {
    const owners = new Map<string, string[]>();
    for (const [canonical, aliases] of Object.entries(CARRIER_ALIASES)) {
      for (const spelling of [canonical, ...aliases]) {
        const key = coreKey(spelling);
        owners.set(key, [...new Set([...(owners.get(key) ?? []), canonical])]);
      }
    }
    const clashes = [...owners].filter(([, names]) => names.length > 1);
    // "employers" is both EMPLOYERS' own name and EMC's "Employers Mutual" once stripped: the
    // exact spelling wins, as the near-miss table proves.
    expect(clashes).toEqual([["employers", ["Employers", "EMC Insurance"]]]);
  });

  test("a misspelling is suggested, never matched; an unrelated name gets no suggestion", () => {
    expect(matched("Progresive")).toBeNull();
    expect(suggestCarrier("Progresive", catalogue)?.carrier.name).toBe("Progressive");
    expect(suggestCarrier("Travellers Insurance", catalogue)?.carrier.name).toBe("Travelers");
    expect(suggestCarrier("Acme Specialty Underwriters", catalogue)).toBeNull();
  });
});
