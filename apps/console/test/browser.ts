import AxeBuilder from '@axe-core/playwright';
import { gatewayUrl } from '@platform/testing';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's chromium (`apt-get install chromium`; `.ci/run` installs it when missing). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** The serious and critical axe-core violations of the page as it is now, each with the elements it names. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Whether the page fits the viewport's width: wide tables scroll inside their own box, not the page. */
export function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

export const consoleUrl = (): string => new URL('/console', gatewayUrl()).href;

/** Opens the console and signs in with the key, as a person would. */
export async function signIn(page: Page, key: string): Promise<void> {
  await page.goto(consoleUrl());
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Axe finds no serious or critical violation at either size, and the page is no wider than the phone's screen. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  const problems = await seriousViolations(page);
  await page.setViewportSize(PHONE);
  problems.push(...(await seriousViolations(page)));
  const overflow = await pageOverflow(page);
  if (overflow > 0) problems.push(`the page is ${overflow}px wider than ${PHONE.width}px`);
  await page.setViewportSize(DESKTOP);
  return problems;
}
