export declare function ens_normalize(name: string): string;
export declare function ens_beautify(name: string): string;
