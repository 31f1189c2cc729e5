export { Cuer } from "cuer";
