/** The package ships no types: its default export is Redis Cluster's slot of a key (hash tags included). */
declare module 'cluster-key-slot' {
  export default function calculateSlot(key: string): number;
}
