export declare function osName(userAgent: string): string | undefined;
export declare function UAParser(userAgent?: string): { ua: string; os: { name: string | undefined; version: undefined } };
