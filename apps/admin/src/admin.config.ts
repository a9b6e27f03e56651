import { BaseConfig } from '@platform/config';

export class AdminConfig extends BaseConfig {}
